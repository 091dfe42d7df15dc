// A key whose own lifetimes are named as the derive names its signatures' (`'de`, `'scan`):
// the derive falls back to names of its own, and the key encodes, decodes, explains and scans.
use rowkey::RowKey;

#[derive(RowKey, Debug, PartialEq)]
struct Named<'de, 'scan> {
    host: &'de str,
    zone: &'scan str,
    ts: u64,
}

fn main() {
    let k = Named { host: "web-1", zone: "eu", ts: 7 };
    let bytes = k.to_bytes().unwrap();
    assert_eq!(Named::decode(&bytes).unwrap(), k);
    assert!(Named::explain(&bytes).contains("web-1"));
    assert_eq!(Named::scan().host("web-1").ranges().len(), 1);
}
