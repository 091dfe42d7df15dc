// Keys declared the way users generate them: through `macro_rules!` (the whole body passed as
// tokens, or each field's name as a `$field:ident`), and inside a function. Macro hygiene
// compares spans, so a name the derive defines and then uses must carry the same span at both
// places; one taken from the field's tokens and one from the derive's call site fail here
// with "cannot find value `__rowkey_f_user` in this scope".
use rowkey::RowKey;

macro_rules! key {
    ($name:ident { $($body:tt)* }) => {
        #[derive(rowkey::RowKey, Debug, PartialEq)]
        #[rowkey(query)]
        pub struct $name { $($body)* }
    };
}

key!(Visit { pub user: u32, pub ts: u64 });
key!(Order {
    #[salt(buckets = 4)]
    pub customer: u64,
    #[fixed(8)]
    pub region: String,
    #[reverse_ts]
    pub placed: u64,
});

macro_rules! key_of_fields {
    ($name:ident, $lead:ident: $lead_ty:ty, $($field:ident: $ty:ty),*) => {
        #[derive(RowKey, Debug, PartialEq)]
        pub struct $name {
            #[salt(buckets = 8)]
            pub $lead: $lead_ty,
            $(pub $field: $ty,)*
        }
    };
}

key_of_fields!(Reading, sensor: u32, day: u16, seq: i64);

macro_rules! records {
    ($name:ident, $shared:ident) => {
        #[derive(RowKey, Debug, PartialEq)]
        #[rowkey(prefix($shared))]
        pub enum $name {
            #[tag(1)]
            Profile { $shared: u64 },
            #[tag(2)]
            Session {
                $shared: u64,
                #[reverse_ts]
                started: u64,
            },
        }
    };
}

records!(UserRow, user);

fn main() {
    #[derive(RowKey, Debug, PartialEq)]
    #[rowkey(query)]
    struct Local {
        tenant: u16,
        #[max_len(12)]
        name: String,
    }

    let v = Visit { user: 7, ts: 9 };
    assert_eq!(Visit::decode(&v.to_bytes().unwrap()).unwrap(), v);
    let _ = Visit::query().ts(9u64).build();
    let _ = Visit::scan().user(7u32).ranges();
    let _ = Visit::explain(&v.to_bytes().unwrap()).to_string();

    let o = Order { customer: 1, region: "eu".into(), placed: 3 };
    assert_eq!(Order::decode(&o.to_bytes().unwrap()).unwrap(), o);
    let _ = Order::scan().customer(1u64).region("eu").ranges();

    let r = Reading { sensor: 3, day: 2, seq: -1 };
    assert_eq!(Reading::decode(&r.to_bytes().unwrap()).unwrap(), r);
    let _ = Reading::scan().sensor(3u32).day(2u16).ranges();
    let _ = Reading::explain(&r.to_bytes().unwrap()).to_string();

    let u = UserRow::Session { user: 5, started: 10 };
    assert_eq!(UserRow::decode(&u.to_bytes().unwrap()).unwrap(), u);
    let _ = UserRow::explain(&u.to_bytes().unwrap()).to_string();

    let l = Local { tenant: 1, name: "a".into() };
    assert_eq!(Local::decode(&l.to_bytes().unwrap()).unwrap(), l);
    let _ = Local::query().name("a").build();
    let _ = Local::explain(&l.to_bytes().unwrap()).to_string();
}
