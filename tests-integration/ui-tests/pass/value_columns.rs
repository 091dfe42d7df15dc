//! `#[derive(RowValue)]` accepts what the guide advises against only when the struct says so,
//! every `Option` spelling, and user types that implement `ColumnValue`.

use rowkey::{ColumnValue, RowValue, ValueErrorKind};

#[derive(Debug, PartialEq)]
struct Celsius(i16);

impl ColumnValue for Celsius {
    const ENCODING: &'static str = "i16 tenths of a degree";
    const WIDTH: Option<usize> = Some(2);
    fn encode_value(&self, out: &mut Vec<u8>) -> Result<(), ValueErrorKind> {
        self.0.encode_value(out)
    }
    fn decode_value(bytes: &[u8]) -> Result<Self, ValueErrorKind> {
        i16::decode_value(bytes).map(Celsius)
    }
}

#[derive(RowValue, Debug, PartialEq)]
#[column(family = "data", allow_long_family, allow_many_families)]
struct Wide {
    #[column(name = "t")]
    temp: Celsius,
    #[column(family = "b", name = "x")]
    b: std::option::Option<u8>,
    #[column(family = "c", name = "x")]
    c: core::option::Option<bool>,
    #[column(family = "e")]
    e: Option<Vec<u8>>,
}

fn main() {
    let w = Wide { temp: Celsius(-5), b: Some(1), c: None, e: Some(vec![0]) };
    let write = w.to_write(b"k".to_vec()).unwrap();
    assert_eq!(write.set.len(), 3);
    assert_eq!(write.clear.len(), 1);
    assert_eq!(Wide::SCHEMA.families(), ["data", "b", "c", "e"]);
    assert_eq!(Wide::SCHEMA.columns[3].qualifier, "e");
}
