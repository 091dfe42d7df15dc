//! [`Hashed`]: the type of a `#[hash(md5)]` field, which stores a digest instead of the value.

use core::fmt;
use core::marker::PhantomData;

use crate::sink::Md5Sink;
use crate::text::KeyBytes;

/// The bytes a value contributes to its `#[hash(md5)]` digest: the raw bytes of text and byte
/// strings, big-endian two's complement for integers. These are the bytes of HBase's
/// `Bytes.toBytes(...)`, so `Hashed::<String>::new(s)` has the digest Java's
/// `MessageDigest.getInstance("MD5").digest(Bytes.toBytes(s))` computes.
pub trait HashInput {
    /// What the hashed bytes are, for a key's layout fingerprint: the integer type (its width
    /// decides the bytes) or `bytes` for text, byte strings and arrays, which feed their bytes
    /// alike (see [`Encode::LAYOUT`](crate::Encode::LAYOUT)).
    const LAYOUT: crate::TypeLayout = crate::TypeLayout::named("custom hash input");
    /// Feeds the value's bytes to the digest.
    fn feed(&self, h: &mut Md5Sink);
}

macro_rules! hash_int {
    ($($t:ty),*) => {$(
        impl HashInput for $t {
            const LAYOUT: crate::TypeLayout = crate::TypeLayout::named(stringify!($t));
            fn feed(&self, h: &mut Md5Sink) {
                crate::sink::Sink::put(h, &self.to_be_bytes());
            }
        }
    )*};
}
hash_int!(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128);

macro_rules! hash_bytes {
    ($($t:ty),*) => {$(
        impl HashInput for $t {
            const LAYOUT: crate::TypeLayout = crate::TypeLayout::named("bytes");
            fn feed(&self, h: &mut Md5Sink) {
                crate::sink::Sink::put(h, self.key_bytes());
            }
        }
    )*};
}
hash_bytes!(
    String,
    &str,
    Box<str>,
    std::borrow::Cow<'_, str>,
    Vec<u8>,
    &[u8],
    Box<[u8]>,
    std::borrow::Cow<'_, [u8]>
);

impl<const N: usize> HashInput for [u8; N] {
    const LAYOUT: crate::TypeLayout = crate::TypeLayout::named("bytes");
    fn feed(&self, h: &mut Md5Sink) {
        crate::sink::Sink::put(h, self);
    }
}

/// A key field stored as the first `LEN` bytes of the MD5 of its value (`#[hash(md5)]`).
///
/// Hashing spreads keys and bounds their width, but the value cannot be recovered from the
/// key, so a decoded `Hashed` holds only the digest: [`Hashed::value`] is `None` and nothing
/// pretends otherwise. Two `Hashed` are equal, and ordered, by digest, which is how their keys
/// compare.
///
/// ```
/// use rowkey::Hashed;
/// let id = Hashed::<String>::new("customer-42".to_string());
/// assert_eq!(id.digest().len(), 16);
/// assert_eq!(id.value().map(String::as_str), Some("customer-42"));
/// assert_eq!(Hashed::<String>::from_digest(*id.digest()), id);
/// ```
pub struct Hashed<T, const LEN: usize = 16> {
    value: Option<T>,
    digest: [u8; LEN],
    _t: PhantomData<fn() -> T>,
}

impl<T: HashInput, const LEN: usize> Hashed<T, LEN> {
    /// Hashes `value` and keeps both.
    pub fn new(value: T) -> Self {
        const {
            assert!(
                LEN >= 1 && LEN <= 16,
                "a `Hashed` digest keeps 1 to 16 bytes of MD5"
            )
        };
        let mut h = Md5Sink::new();
        value.feed(&mut h);
        let full = h.finish();
        let mut digest = [0u8; LEN];
        digest.copy_from_slice(&full[..LEN]);
        Hashed {
            value: Some(value),
            digest,
            _t: PhantomData,
        }
    }
}

impl<T, const LEN: usize> Hashed<T, LEN> {
    /// A `Hashed` known only by its digest, as decoding produces.
    pub const fn from_digest(digest: [u8; LEN]) -> Self {
        Hashed {
            value: None,
            digest,
            _t: PhantomData,
        }
    }

    /// The digest stored in the key.
    pub const fn digest(&self) -> &[u8; LEN] {
        &self.digest
    }

    /// The original value, when this `Hashed` was built from one rather than decoded.
    pub const fn value(&self) -> Option<&T> {
        self.value.as_ref()
    }
}

impl<T: Clone, const LEN: usize> Clone for Hashed<T, LEN> {
    fn clone(&self) -> Self {
        Hashed {
            value: self.value.clone(),
            digest: self.digest,
            _t: PhantomData,
        }
    }
}

impl<T, const LEN: usize> PartialEq for Hashed<T, LEN> {
    fn eq(&self, other: &Self) -> bool {
        self.digest == other.digest
    }
}

impl<T, const LEN: usize> Eq for Hashed<T, LEN> {}

impl<T, const LEN: usize> PartialOrd for Hashed<T, LEN> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<T, const LEN: usize> Ord for Hashed<T, LEN> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.digest.cmp(&other.digest)
    }
}

impl<T, const LEN: usize> core::hash::Hash for Hashed<T, LEN> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.digest.hash(state);
    }
}

impl<T: fmt::Debug, const LEN: usize> fmt::Debug for Hashed<T, LEN> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Hashed(")?;
        for b in &self.digest {
            write!(f, "{b:02x}")?;
        }
        if let Some(v) = &self.value {
            write!(f, " of {v:?}")?;
        }
        f.write_str(")")
    }
}
