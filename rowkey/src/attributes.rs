//! The attribute reference: every attribute `#[derive(RowKey)]` and `#[derive(RowValue)]`
//! accept, with an example.
//!
//! This module holds documentation only. The byte format of each is permanent: keys written by
//! one release read back in every later one.
//!
//! # Field types without attributes
//!
//! | type | encoding |
//! |---|---|
//! | `u8`..`u128` | big-endian, fixed width |
//! | `i8`..`i128` | big-endian with the sign bit flipped (`v ^ MIN`), so negatives sort first |
//! | `bool` | `0x00` / `0x01` |
//! | `f32`, `f64` | IEEE bits; negative: all bits inverted; else sign bit set (a total order) |
//! | text and bytes | `0x00` escaped as `0x00 0xFF`, then the terminator `0x00 0x01` |
//! | `[u8; N]` | the N bytes |
//! | `Option<T>` | `0x00` for None; `0x01` then T |
//! | a `#[derive(RowKey)]` type | its encoding, salt excluded |
//!
//! Text and bytes are `String`, `&str`, `Box<str>`, `Cow<str>`, `Vec<u8>`, `&[u8]`,
//! `Box<[u8]>` and `Cow<[u8]>`. Borrowed types decode without copying; their bytes must not
//! need unescaping (a value with a `0x00`), otherwise decoding says to use an owned type.
//! `usize`/`isize` are refused: their width depends on the platform.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Reading<'a> {
//!     sensor: &'a str,
//!     delta: i32,
//!     value: f64,
//!     tag: Option<u8>,
//! }
//!
//! let lo = Reading { sensor: "s1", delta: -5, value: 0.5, tag: None }.to_bytes()?;
//! let hi = Reading { sensor: "s1", delta: 3, value: -1.0, tag: None }.to_bytes()?;
//! assert!(lo < hi); // -5 < 3, even though the value field says otherwise
//! assert_eq!(Reading::decode(&lo)?.sensor, "s1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # `#[fixed(N)]`
//!
//! On text or bytes: exactly N bytes, right-padded with `0x00`. A longer value is an
//! [`EncodeError`](crate::EncodeError), never truncated; so is a value ending in `0x00`, which the
//! padding would swallow. Decoding strips the padding.
//!
//! ```
//! use rowkey::{EncodeErrorKind, RowKey};
//!
//! #[derive(RowKey)]
//! struct Code { #[fixed(4)] code: String }
//!
//! assert_eq!(&Code { code: "ab".into() }.to_bytes()?[..], b"ab\0\0");
//! let err = Code { code: "abcde".into() }.to_bytes().unwrap_err();
//! assert_eq!(err.kind(), EncodeErrorKind::TooLongForFixed { len: 5, width: 4 });
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # `#[max_len(N)]`
//!
//! On variable-length text or bytes: the value may hold at most N bytes. It bounds the key's
//! `MAX_LEN` (each byte may escape to two, plus the terminator), so keys fit stack buffers.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct Host { #[max_len(8)] host: String, port: u16 }
//!
//! assert_eq!(Host::MAX_LEN, 2 * 8 + 2 + 2);
//! assert!(Host { host: "a-long-hostname".into(), port: 80 }.to_bytes().is_err());
//! ```
//!
//! # `#[reverse_ts]`
//!
//! On `u64` or `i64`: `i64::MAX - ts` as 8 bytes big-endian, byte-identical to HBase's
//! `Bytes.toBytes(Long.MAX_VALUE - ts)`, so the newest row of a prefix sorts first. A timestamp
//! outside `0..=i64::MAX` is an error. Cannot be combined with `desc`.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct Version { id: u32, #[reverse_ts] ts: u64 }
//!
//! let old = Version { id: 1, ts: 100 }.to_bytes()?;
//! let new = Version { id: 1, ts: 200 }.to_bytes()?;
//! assert!(new < old);
//! assert_eq!(&old[4..], (i64::MAX - 100).to_be_bytes());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # `#[timestamp]`
//!
//! On an integer: marks an ascending time field, encoded as its integer type. It exists for the
//! hotspot rule below and for the layout docs.
//!
//! # `#[desc]`
//!
//! On any ordered field: every byte of its encoding inverted, so the field sorts descending.
//! Variable-length fields stay prefix-free. A borrowed field cannot be `desc` (its bytes are
//! stored inverted): use `String` or `Cow`.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct Score { game: u16, #[desc] points: i64 }
//!
//! assert!(Score { game: 1, points: 10 }.to_bytes()? < Score { game: 1, points: -10 }.to_bytes()?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # `#[reverse]`
//!
//! On integers and `[u8; N]`: the fixed-width bytes reversed, so sequential ids (whose low
//! bytes change fastest) spread over the key space, as the HBase guide's "reversing the key".
//! Order is given up: scans may fix the field by equality only.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct Msg { #[reverse] id: u32 }
//!
//! assert_eq!(&Msg { id: 0x0102_0304 }.to_bytes()?[..], [4, 3, 2, 1]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # `#[java]`, `#[java(utf)]`, `#[rest]`: keys Java code wrote
//!
//! For tables a Java service already fills: the bytes exactly as Java writes them (FORMAT.md
//! §2.15). `#[java]` on a number is `Bytes.toBytes` / `DataOutput.writeLong` and kin
//! (two's complement big-endian, floats as raw IEEE 754 bits); `#[java(utf)]` on a `String` is
//! `DataOutput.writeUTF` (a 2-byte length, then modified UTF-8); `#[rest]` on the last field
//! is `Bytes.toBytes(String)` or raw bytes to the end of the key.
//!
//! Order is stated, not assumed: a signed or float `#[java]` field sorts negative values after
//! positive ones, and `writeUTF`'s length sorts short strings first, so those fields take a
//! value in scans and queries, never a range (a range does not compile). A `#[java]` field
//! declared unsigned is a Java number that is never negative, as Flurry's article assumes of
//! its user ids: its bytes sort as its values, so it takes ranges, and a negative number is
//! refused both ways. `#[rest]` sorts as its bytes; an equality scan on it is the one key, so
//! `"10"` never finds `"100"`.
//!
//! ```
//! use rowkey::RowKey;
//!
//! /// Flurry's key: `out.writeLong(userId); out.writeUTF(applicationId);`
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Install {
//!     #[java]
//!     user_id: u64,
//!     #[java(utf)]
//!     application_id: String,
//! }
//!
//! let k = Install { user_id: 1, application_id: "abc".into() };
//! assert_eq!(&k.to_bytes()?[..], b"\0\0\0\0\0\0\0\x01\0\x03abc");
//! let users = Install::scan().user_id(100u64..200).ranges(); // exact: ids are never negative
//! # let _ = users;
//!
//! /// `Bytes.toBytes(shard) + Bytes.toBytes(seq) + Bytes.toBytes(name)`
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Concat {
//!     #[java]
//!     shard: i32,
//!     #[java]
//!     seq: i64,
//!     #[rest]
//!     name: String,
//! }
//!
//! let k = Concat { shard: -1, seq: 2, name: "user_10".into() };
//! assert_eq!(Concat::decode(&k.to_bytes()?)?, k);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # `#[rowkey(delimiter = ':')]`, `#[decimal]`, `#[hex]`: text keys
//!
//! A text key writes every field as text and joins the fields with the delimiter, as a Java
//! service's `date + ":" + time + ":" + id` (FORMAT.md §2.16): text as it is (or reversed
//! with `#[reverse]`, or space-padded to a width with `#[fixed(N)]`), integers as `#[decimal]`
//! (`Long.toString`), `#[decimal(width = N)]`
//! (`String.format("%0Nd")`) or `#[hex(width = N, upper)]`. A value that holds the delimiter,
//! or a number wider than its width, is refused. Padded unsigned numbers and the last text
//! field keep order (ranges); unpadded numbers and text followed by the delimiter take values
//! only, and an equality scan carries the delimiter, so `"10"` never finds `"100"`.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! #[rowkey(delimiter = ':')]
//! struct Message {
//!     #[decimal(width = 6)]
//!     date: u32,
//!     #[decimal(width = 6)]
//!     time: u32,
//!     #[decimal]
//!     message_id: u64,
//! }
//!
//! let m = Message { date: 230611, time: 63031, message_id: 1231231 };
//! assert_eq!(&m.to_bytes()?[..], b"230611:063031:1231231");
//! let june = Message::scan().date(230601u32..230701).ranges(); // padded: ranges are exact
//! # let _ = june;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # `#[rowkey(hash_prefix(md5, of = field, upper, len = N))]`
//!
//! The key starts with the MD5 of one field (FORMAT.md §2.17): in a text key its hex digits
//! (`upper` for uppercase, the first `len` of 32) and the delimiter, in a binary key the
//! digest's first `len` bytes. It spreads keys as a salt does, over the whole key space;
//! decoding refuses a prefix that is not the fields' hash. A scan cannot fix a field of such a
//! key; read it by key, or with `#[rowkey(query)]`.
//!
//! ```
//! use rowkey::RowKey;
//!
//! /// The salting article's `MD5(message_id):yyMMdd:HHmmss:message_id`.
//! #[derive(RowKey, Debug, PartialEq)]
//! #[rowkey(delimiter = ':', hash_prefix(md5, of = message_id, upper))]
//! struct Message {
//!     #[decimal(width = 6)]
//!     date: u32,
//!     #[decimal(width = 6)]
//!     time: u32,
//!     #[decimal]
//!     message_id: u64,
//! }
//!
//! let m = Message { date: 230611, time: 63031, message_id: 1231231 };
//! let key = m.to_bytes()?;
//! assert_eq!(&key[32..], b":230611:063031:1231231");
//! assert_eq!(Message::decode(&key)?, m);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # `#[hash(md5)]`, `#[hash(md5, len = N)]`
//!
//! The field is stored as (the first N bytes of) the MD5 of its value, as the guide's
//! "[MD5 of customer number] = 16 bytes". Since the value cannot be recovered, the field's type
//! is [`Hashed<T>`](crate::Hashed) (or `Hashed<T, N>`), which decodes to the digest alone.
//! Text hashes its UTF-8 bytes and integers their big-endian bytes, as Java's
//! `MessageDigest.digest(Bytes.toBytes(x))` does.
//!
//! ```
//! use rowkey::{Hashed, RowKey};
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Order { #[hash(md5, len = 4)] customer: Hashed<String, 4>, order: u32 }
//!
//! let o = Order { customer: Hashed::new("foo".into()), order: 1 };
//! let bytes = o.to_bytes()?;
//! assert_eq!(&bytes[..4], [0xac, 0xbd, 0x18, 0xdb]); // md5("foo") begins acbd18db
//! let back = Order::decode(&bytes)?;
//! assert_eq!(back, o);
//! assert_eq!(back.customer.value(), None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # `#[salt(buckets = N)]`
//!
//! On one field F: the key starts with a salt byte, `md5(encoded fields up to and including
//! F)`, first 8 bytes big-endian, modulo N (2..=256). Writes spread over N key ranges, while
//! every key of one entity (same fields up to F) lands in one bucket, so a read that knows them
//! rebuilds the full key. `decode` checks the salt byte (one hash); `decode_trusted` skips that.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Row { #[salt(buckets = 4)] #[fixed(7)] row: String }
//!
//! let k = Row { row: "foo0003".into() };
//! assert_eq!(k.salt_bucket(), Some(0));
//! assert_eq!(&k.to_bytes()?[..], b"\x00foo0003");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Other salt strategies: `#[salt(buckets = N, hash = "...")]`
//!
//! The default is `hash = "md5"` (the bytes above). The others, for tables other systems
//! read or for speed:
//!
//! | `hash` | salt byte |
//! |---|---|
//! | `"java"` | `abs(h % N)` where `h` is Java's `Arrays.hashCode` (start at 1, `h = 31 * h + b` over signed bytes, 32-bit wrapping) of the encoded fields up to F, and `%` is Java's truncating remainder: OpenTSDB's salt. Put it on the last field before the timestamp, as OpenTSDB does, so a series stays in one bucket |
//! | `"phoenix"` | the same function over every byte after the salt byte: Apache Phoenix's `SaltingUtil.getSaltingByte`. Structs only; only a whole key decides the bucket, so every prefix scan fans out |
//! | `"xxh3"` | `xxh3_64` (seed 0) of the encoded fields up to F, modulo N: spread only, ~5 ns against MD5's ~140 |
//! | `"mod"` | the field's value modulo N, on a leading plain `u8`..`u64`: the guide's `timestamp % numBuckets` |
//!
//! A Phoenix table readable by Phoenix also needs Phoenix's own encodings of the columns after
//! the salt byte (its `PDataType`s: a signed integer with its sign bit flipped, as rowkey's;
//! `VARCHAR` ended by a single `0x00`, where rowkey escapes and ends text with `0x00 0x01`), so
//! match rowkey's fields to Phoenix's column types before relying on it; the salt byte is the
//! same either way. Split points, scans, explain and the schema data (`SaltSchema::hash`) work
//! the same for every strategy. The JVM recomputes the `java` and `phoenix` bytes in
//! `tests/hbase.rs` (Java's `Arrays.hashCode`, Phoenix's own `SaltingUtil`).
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct Point { metric: u32, #[salt(buckets = 20, hash = "java")] tags: String, #[timestamp] ts: u64 }
//!
//! let k = Point { metric: 1, tags: "cpu.user".into(), ts: 1_700_000_000_000 };
//! assert_eq!(k.salt_bucket(), Some(12)); // Arrays.hashCode(...) == 243972372; 243972372 % 20
//! assert_eq!(Point::SCHEMA.salt.unwrap().hash, "java");
//! ```
//!
//! # `#[uid(kind = "...")]`
//!
//! On a `u8`, `u16`, `u32` or `u64`: the field holds an id from a lookup table
//! ([`UidTable`](crate::store::UidTable)) of names of that kind, as the table writes it
//! (big-endian, the type's width the ids' width). The bytes and the layout fingerprint are the
//! plain integer's; the attribute tells [`explain_schema_with_names`](crate::explain_schema_with_names)
//! and `rowkey explain --uids TABLE` which names to show. Nothing may change the id's bytes:
//! `desc`, `reverse`, `fixed` and the other encodings are refused beside it.
//!
//! ```
//! use rowkey::store::{MemStore, UidTable};
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct Event {
//!     #[uid(kind = "host")]
//!     host: u16,
//!     #[reverse_ts]
//!     ts: u64,
//! }
//!
//! let store = MemStore::new();
//! let hosts = UidTable::new(&store, "host", 2)?;
//! let id = hosts.get_or_assign("web-01.dc1")?;
//! let key = Event { host: u16::try_from(id)?, ts: 1_700_000_000_000 }.to_bytes()?;
//! assert_eq!(key[..2], hosts.id_bytes(id)[..]);
//! let names = |_: &str, id: &[u8]| {
//!     let id = id.iter().fold(0, |n, &b| n << 8 | u64::from(b));
//!     hosts.name(id).ok().flatten()
//! };
//! assert!(rowkey::explain_schema_with_names(Event::SCHEMA, &key, &names).contains("1 = \"web-01.dc1\""));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # `#[rowkey(fingerprint = 0x...)]`
//!
//! On the type: pins [`RowKey::FINGERPRINT`](crate::RowKey::FINGERPRINT), a hash of everything
//! that decides the stored bytes (field order, type classes and encodings, salt strategy,
//! buckets and salted fields, record tags; not names, docs, derive order, `#[timestamp]`,
//! `key_limit` or `max_len` bounds). When the type changes so that stored keys would read
//! differently, the build fails at this attribute with the new value, the part that changed and
//! the layout. Each key's rustdoc shows its value. A field whose type the derive cannot read
//! from its tokens (a type alias, a nested key, `Hashed<T>`) counts by what it resolves to: an
//! alias as the type it names, a nested key by its own fingerprint, so a change to either fails
//! the pin (through a constant assertion at the attribute) and a rename does not.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! #[rowkey(fingerprint = 0x898d96ef0000e9bf)]
//! struct Event { #[salt(buckets = 16)] user_id: u64, #[fixed(16)] event_type: String, #[reverse_ts] ts: u64 }
//! assert_eq!(Event::FINGERPRINT, 0x898d96ef0000e9bf);
//! ```
//!
//! # `#[rowkey(key_limit = N)]`, `#[rowkey(allow_hotspot)]`
//!
//! On the struct. `key_limit` is the longest key the type may encode (default 32767, HBase's;
//! Bigtable's is 4096): a longer key is an encode error (and does not decode), and a
//! fixed-length key longer than the limit a compile error. It was spelled `max_len = N`
//! before; that spelling still works and warns (deprecated), since `#[max_len(N)]` on a field
//! is a different thing, the field's bound.
//!
//! `allow_hotspot` accepts a `#[timestamp]` or `#[reverse_ts]` field leading an unsalted key.
//! Without it that is a compile error: every new row would go to the same region.
//!
//! ```compile_fail
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct Log { #[timestamp] ts: u64, host: String } // error: a write hotspot
//! ```
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! #[rowkey(allow_hotspot, key_limit = 4096)]
//! struct Log { #[timestamp] ts: u64, host: String }
//! ```
//!
//! # `#[rowkey(query)]`
//!
//! On a key without lifetimes: generates `T::query()` and its builder `TQuery`, a skip-scan
//! query in which any fields, in any order, are equal to a value, in a list (`field_in`) or in
//! a range, read with `Table::query` (the scans chapter of the guide). On a record-type enum
//! it takes the shared prefix's fields and the tag (`tag`, `tag_in`, or a record type's
//! selector, then that type's own fields). It changes nothing of the key's bytes or
//! fingerprint. Refused on a key with lifetimes (not built yet: query the owned twin, which
//! has the same layout).
//!
//! ```
//! use rowkey::store::{MemStore, Table};
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! #[rowkey(query)]
//! struct Install { user_id: u64, application_id: u32 }
//!
//! let table = Table::<_, Install>::new(MemStore::new());
//! table.put(&Install { user_id: 1, application_id: 42 }, b"")?;
//! let users = table.query(&Install::query().application_id(42u32).build()).count();
//! assert_eq!(users, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # `#[rowkey(crate = "path")]`
//!
//! On the struct or enum, when `rowkey` is a renamed dependency (`keys = { package = "rowkey" }`)
//! or reached through another crate's re-export: the generated code names the library through
//! `path` instead of `::rowkey`. `ui-tests/renamed` is a crate that knows the library only as
//! `keys`.
//!
//! ```
//! mod facade {
//!     pub(crate) use ::rowkey as keys;
//! }
//! use facade::keys::RowKey;
//!
//! #[derive(RowKey)]
//! #[rowkey(crate = "facade::keys")]
//! struct Visit { site: u32, page: String }
//!
//! assert_eq!(Visit { site: 1, page: "/".into() }.to_bytes()?.len(), 4 + 1 + 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Record types get a scan selector named after them in `snake_case` (`LineItem` ->
//! `line_item()`, `HTTPLog` -> `http_log()`, a keyword such as `Type` -> `r#type()`); a name the
//! builder already uses (`tag`, `ranges`) or two record types with the same selector are
//! compile errors.
//!
//! # Record types: `#[tag(N)]` and `#[rowkey(prefix(...))]`
//!
//! On an enum, each variant is a record type of one table: `[salt][prefix][tag][fields]`.
//! `#[rowkey(prefix(a, b))]` names the entity fields every variant starts with (same names,
//! types and attributes, checked); `#[tag(N)]` (0..=255, explicit and unique) is the byte
//! that tells the record types apart. A salt must be on a prefix field, so all records of one
//! entity share a bucket. An unknown tag decodes to `DecodeErrorKind::UnknownTag`.
//!
//! ```
//! use rowkey::{DecodeErrorKind, RowKey};
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! #[rowkey(prefix(user))]
//! enum UserRow {
//!     #[tag(1)]
//!     Profile { #[salt(buckets = 4)] user: u64 },
//!     #[tag(2)]
//!     Session { #[salt(buckets = 4)] user: u64, #[reverse_ts] started: u64 },
//! }
//!
//! let s = UserRow::Session { user: 9, started: 100 };
//! let bytes = s.to_bytes()?;
//! assert_eq!(bytes[9], 2); // salt, 8-byte user, then the tag
//! assert_eq!(UserRow::decode(&bytes)?, s);
//! let latest_sessions = UserRow::scan().user(9).session().ranges();
//! assert!(latest_sessions.contains(&bytes));
//!
//! let mut newer = bytes.to_vec();
//! newer[9] = 3; // a record type this reader does not know
//! assert_eq!(UserRow::decode_trusted(&newer).unwrap_err().kind(), DecodeErrorKind::UnknownTag { tag: 3 });
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ```compile_fail
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! enum Row {
//!     #[tag(1)] A { id: u64 },
//!     B { id: u64 }, // error: record type `B` needs an explicit `#[tag(N)]`
//! }
//! ```
//!
//! # The value side: `#[derive(RowValue)]` and `#[column(...)]`
//!
//! A struct whose fields are the columns of a row ([`RowValue`](crate::RowValue)), for a
//! [`CellTable`](crate::store::CellTable). Each field is one column: a family and a qualifier.
//!
//! | where | attribute | meaning |
//! |---|---|---|
//! | struct | `#[column(family = "d")]` | the fields' default family |
//! | field | `#[column(family = "m")]` | this field's family |
//! | field | `#[column(name = "via")]` | the qualifier (default: the field's name) |
//! | struct | `#[column(allow_long_family)]` | accept families longer than 3 bytes |
//! | struct | `#[column(allow_many_families)]` | accept more than 3 families |
//! | struct | `#[column(crate = "path")]` | where `rowkey` is reachable |
//!
//! Compile-time rules, each reported at the attribute that breaks it: every column has a family
//! and a non-empty name; family names use letters, digits, `-`, `_` and `.` (Bigtable's rule);
//! no two fields share a column; and the guide's rules of thumb, which the `allow_` attributes
//! accept: short family names (every cell stores its family: "d", not "data") and at most three
//! families (HBase flushes and compacts a region's families together).
//!
//! Field types are [`ColumnValue`](crate::ColumnValue)s: integers, floats, `bool` and `String`
//! byte-compatible with HBase's `Bytes.toBytes` (see the trait), `Vec<u8>` as is, any serde type
//! as `Json<T>` (feature `json`), and your own types through the trait. An `Option<T>` field is
//! an optional column: `None` writes no cell and clears the column when the row is put.
//!
//! ```
//! use rowkey::store::{CellTable, MemStore};
//! use rowkey::{RowKey, RowValue};
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct PageKey { #[salt(buckets = 4)] site: String, path: String }
//!
//! #[derive(RowValue, Debug, PartialEq)]
//! #[column(family = "d")]
//! struct Page {
//!     #[column(name = "t")]
//!     title: String,
//!     #[column(name = "n")]
//!     views: i64,
//!     #[column(family = "m", name = "etag")]
//!     etag: Option<String>,
//! }
//!
//! let pages: CellTable<_, PageKey, Page> = CellTable::new(MemStore::new());
//! let key = PageKey { site: "example.org".into(), path: "/".into() };
//! let page = Page { title: "Home".into(), views: 7, etag: None };
//! pages.put(&key, &page)?;
//! assert_eq!(pages.get(&key)?, Some(page));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ```compile_fail
//! use rowkey::RowValue;
//!
//! #[derive(RowValue)]
//! #[column(family = "data")] // error: every cell stores its family name; keep it to 3 bytes
//! struct Page { title: String }
//! ```
