// Unit record types, no shared prefix, a salted shared prefix, and record types whose
// selectors are keywords (`Type` -> `r#type()`) or acronyms (`HTTPLog` -> `http_log()`) all derive.
use rowkey::RowKey;

#[derive(RowKey, Debug, PartialEq)]
enum Flag {
    #[tag(0)]
    Off,
    #[tag(1)]
    On,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(prefix(tenant, user))]
enum Row {
    #[tag(10)]
    Profile {
        tenant: u16,
        #[salt(buckets = 4)]
        user: u64,
    },
    #[tag(20)]
    Session {
        tenant: u16,
        #[salt(buckets = 4)]
        user: u64,
        #[reverse_ts]
        started: u64,
    },
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(prefix(id))]
enum Meta {
    #[tag(1)]
    Type { id: u32, name: String },
    #[tag(2)]
    HTTPLog { id: u32, status: u16 },
}

fn main() {
    assert_eq!(Meta::scan().id(7).r#type().name("a").ranges().len(), 1);
    assert_eq!(Meta::scan().id(7).http_log().status(200..300).ranges().len(), 1);
    assert_eq!(Flag::decode(&Flag::On.to_bytes().unwrap()).unwrap(), Flag::On);
    let r = Row::Session { tenant: 1, user: 2, started: 3 };
    assert_eq!(Row::decode(&r.to_bytes().unwrap()).unwrap(), r);
    assert_eq!(Row::scan().tenant(1).user(2).session().started(0..10).ranges().len(), 1);
}
