//! Salt buckets: which of N buckets a key's salted fields hash to, by each salt strategy
//! (`#[salt(buckets = N, hash = "...")]`). Every strategy reads the same bytes: the encoded
//! salted fields, as the key stores them after the salt byte (for `phoenix`, every field).

use crate::sink::{Md5Sink, Sink};

/// How the salt byte is computed. The default, [`SaltHash::Md5`], is the byte format of every
/// key written before the other strategies existed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaltHash {
    /// The first 8 bytes of the MD5 digest, big-endian, modulo N.
    Md5,
    /// Java's `Arrays.hashCode(byte[])` (start at 1, `h = 31 * h + b` over signed bytes, 32-bit
    /// wrapping), then `|h % N|` with Java's truncating `%`: OpenTSDB's salt.
    Java,
    /// The same function over the whole key after the salt byte: Apache Phoenix's
    /// `SaltingUtil.getSaltingByte`.
    Phoenix,
    /// `xxh3_64` (seed 0), modulo N: a fast non-cryptographic spread.
    Xxh3,
    /// The salted unsigned integer's value modulo N (the guide's `timestamp % numBuckets`).
    Mod,
}

impl SaltHash {
    /// The strategy's name, as written in the attribute and in the schema data.
    pub const fn name(self) -> &'static str {
        match self {
            SaltHash::Md5 => "md5",
            SaltHash::Java => "java",
            SaltHash::Phoenix => "phoenix",
            SaltHash::Xxh3 => "xxh3",
            SaltHash::Mod => "mod",
        }
    }

    /// The strategy of a name, as [`SaltHash::name`] writes it.
    pub fn from_name(name: &str) -> Option<SaltHash> {
        [
            SaltHash::Md5,
            SaltHash::Java,
            SaltHash::Phoenix,
            SaltHash::Xxh3,
            SaltHash::Mod,
        ]
        .into_iter()
        .find(|h| h.name() == name)
    }
}

/// The bucket of an MD5 digest: its first 8 bytes, big-endian, modulo `buckets` (2..=256).
#[inline]
pub fn bucket(digest: &[u8; 16], buckets: u16) -> u8 {
    let head = u64::from_be_bytes([
        digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7],
    ]);
    // `buckets` is at most 256, so the remainder fits a byte.
    (head % u64::from(buckets.max(1))) as u8
}

/// The bucket `hash` gives the salted bytes `bytes` (the encoded salted fields).
pub fn bucket_of(hash: SaltHash, bytes: &[u8], buckets: u16) -> u8 {
    match hash {
        SaltHash::Md5 => {
            let mut h = Md5Sink::new();
            h.put(bytes);
            bucket(&h.finish(), buckets)
        }
        SaltHash::Java | SaltHash::Phoenix => {
            let mut h = JavaHashSink::new();
            h.put(bytes);
            h.bucket(buckets)
        }
        SaltHash::Xxh3 => {
            let mut h = Xxh3Sink::new();
            h.put(bytes);
            h.bucket(buckets)
        }
        SaltHash::Mod => {
            let mut h = ModSink::new();
            h.put(bytes);
            h.bucket(buckets)
        }
    }
}

/// Java's `Arrays.hashCode(byte[])` over the bytes put.
pub struct JavaHashSink(i32);

impl JavaHashSink {
    /// The hash of no bytes: 1.
    pub fn new() -> Self {
        JavaHashSink(1)
    }

    /// The hash so far, as Java's `int`.
    #[cfg(test)]
    pub fn hash(&self) -> i32 {
        self.0
    }

    /// `|h % buckets|`, with Java's truncating remainder.
    pub fn bucket(&self, buckets: u16) -> u8 {
        // The remainder's magnitude is below `buckets` (at most 256), so it fits a byte.
        (self.0 % i32::from(buckets.max(1))).unsigned_abs() as u8
    }
}

impl Default for JavaHashSink {
    fn default() -> Self {
        Self::new()
    }
}

impl Sink for JavaHashSink {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.wrapping_mul(31).wrapping_add(i32::from(b as i8));
        }
    }
}

/// `xxh3_64` (seed 0) over the bytes put. Salted prefixes are short, and xxh3's one-shot
/// function is several times faster on them than its streaming state, so up to 64 bytes are
/// gathered on the stack and hashed at once; longer input streams (the digest is the same).
pub struct Xxh3Sink {
    buf: [u8; 64],
    len: usize,
    stream: Option<Box<xxhash_rust::xxh3::Xxh3>>,
}

impl Xxh3Sink {
    /// A fresh state.
    pub fn new() -> Self {
        Xxh3Sink {
            buf: [0; 64],
            len: 0,
            stream: None,
        }
    }

    /// The digest of everything put.
    pub fn digest(&self) -> u64 {
        match &self.stream {
            Some(s) => s.digest(),
            None => xxhash_rust::xxh3::xxh3_64(&self.buf[..self.len]),
        }
    }

    /// The digest modulo `buckets`.
    pub fn bucket(&self, buckets: u16) -> u8 {
        (self.digest() % u64::from(buckets.max(1))) as u8
    }
}

impl Default for Xxh3Sink {
    fn default() -> Self {
        Self::new()
    }
}

impl Sink for Xxh3Sink {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        if let Some(s) = &mut self.stream {
            s.update(bytes);
        } else if let Some(room) = self.buf.get_mut(self.len..self.len + bytes.len()) {
            room.copy_from_slice(bytes);
            self.len += bytes.len();
        } else {
            // Past 64 bytes (a long salted prefix): stream, at one allocation per key.
            let mut s = Box::new(xxhash_rust::xxh3::Xxh3::new());
            s.update(&self.buf[..self.len]);
            s.update(bytes);
            self.stream = Some(s);
        }
    }
}

/// The big-endian unsigned integer of the bytes put (an unsigned integer field's encoding is
/// its value, big-endian).
pub struct ModSink(u64);

impl ModSink {
    /// Zero.
    pub fn new() -> Self {
        ModSink(0)
    }

    /// The value modulo `buckets`.
    pub fn bucket(&self, buckets: u16) -> u8 {
        (self.0 % u64::from(buckets.max(1))) as u8
    }
}

impl Default for ModSink {
    fn default() -> Self {
        Self::new()
    }
}

impl Sink for ModSink {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Java's `Arrays.hashCode(byte[])`, written out as the JDK defines it.
    fn java_hash_code(a: &[u8]) -> i32 {
        let mut result: i32 = 1;
        for &element in a {
            result = 31i32
                .wrapping_mul(result)
                .wrapping_add(element as i8 as i32);
        }
        result
    }

    #[test]
    fn java_hash_matches_arrays_hash_code() {
        // Values computed with the JDK (jshell: `Arrays.hashCode(new byte[]{...})`); the same
        // vectors are checked against the JVM itself in tests/hbase.rs.
        let cases: [(&[u8], i32); 4] = [
            (b"", 1),
            (b"a", 31 + 97),
            (&[0xff], 31 - 1),
            (b"hello", java_hash_code(b"hello")),
        ];
        for (bytes, want) in cases {
            let mut h = JavaHashSink::new();
            h.put(bytes);
            assert_eq!(h.hash(), want, "{bytes:?}");
        }
        // A negative hash takes Java's truncating remainder, then its magnitude.
        let negative = (1..40)
            .map(|n| {
                let mut h = JavaHashSink::new();
                h.put(&vec![0x80; n]);
                h
            })
            .find(|h| h.hash() < 0)
            .expect("some run of 0x80 bytes hashes negative");
        assert_eq!(i32::from(negative.bucket(16)), (negative.hash() % 16).abs());
        assert!(negative.hash() % 16 <= 0);
    }

    #[test]
    fn names_round_trip_and_mod_reads_big_endian() {
        for h in [
            SaltHash::Md5,
            SaltHash::Java,
            SaltHash::Phoenix,
            SaltHash::Xxh3,
            SaltHash::Mod,
        ] {
            assert_eq!(SaltHash::from_name(h.name()), Some(h));
        }
        assert_eq!(SaltHash::from_name("crc32"), None);
        assert_eq!(
            bucket_of(SaltHash::Mod, &1_700_000_000_123u64.to_be_bytes(), 16),
            (1_700_000_000_123u64 % 16) as u8
        );
        assert_eq!(bucket_of(SaltHash::Mod, &[1, 0], 256), 0);
    }

    #[test]
    fn xxh3_gathered_and_streamed_agree() {
        let data: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
        for len in [0, 1, 8, 63, 64, 65, 200, 300] {
            for split in [0, 1.min(len), len / 2, len] {
                let mut h = Xxh3Sink::new();
                h.put(&data[..split]);
                h.put(&data[split..len]);
                assert_eq!(
                    h.digest(),
                    xxhash_rust::xxh3::xxh3_64(&data[..len]),
                    "{len} {split}"
                );
            }
        }
    }
}
