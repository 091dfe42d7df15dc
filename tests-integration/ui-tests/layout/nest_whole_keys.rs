// A key whose bytes are whole only as a key cannot be a field of another: a text key (its text
// is delimited only inside its own key), one ending in `#[rest]` (nothing could follow it), one
// with a hash prefix (only a whole key holds it). Each is refused where the outer key names it,
// directly or in an `Option` (the first such field of a key: one compile-time check per key).
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimiter = ':')]
pub struct Text {
    pub user: String,
    #[decimal]
    pub ts: u64,
}

#[derive(RowKey)]
pub struct Java {
    #[java]
    pub id: u64,
    #[rest]
    pub name: String,
}

#[derive(RowKey)]
#[rowkey(hash_prefix(md5, of = id, len = 2))]
pub struct Prefixed {
    pub id: u64,
}

#[derive(RowKey)]
pub struct OuterText {
    pub text: Text,
    pub n: u32,
}

#[derive(RowKey)]
pub struct OuterJava {
    pub n: u32,
    pub java: Option<Java>,
}

#[derive(RowKey)]
pub struct OuterPrefixed {
    pub prefixed: Prefixed,
}

// A key with a lifetime is checked the same way.
#[derive(RowKey)]
#[rowkey(delimiter = '|')]
pub struct TextRef<'a> {
    pub user: &'a str,
    #[decimal]
    pub ts: u64,
}

#[derive(RowKey)]
pub struct Borrowing<'a> {
    pub n: u32,
    pub text: TextRef<'a>,
}

fn main() {}
