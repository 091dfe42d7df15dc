//! The two error types of rowkey: [`EncodeError`] and [`DecodeError`].
//!
//! Both are small, `Copy`, allocation-free values (decoding arbitrary bytes must not allocate
//! to fail), and both name the key field and the byte offset where things went wrong.

use core::fmt;

/// Why a value could not be encoded into a key. Nothing is ever truncated: the key is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodeError {
    field: &'static str,
    offset: Option<usize>,
    kind: EncodeErrorKind,
}

/// What went wrong while encoding; see [`EncodeError::kind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// A `#[fixed(N)]` value is longer than `N` bytes.
    TooLongForFixed {
        /// The value's length in bytes.
        len: usize,
        /// The declared width.
        width: usize,
    },
    /// A `#[fixed(N)]` value ends with a `0x00` byte, which the zero padding would swallow.
    TrailingNul {
        /// The value's length in bytes.
        len: usize,
    },
    /// A variable-length value is longer than its `#[max_len(N)]` bound.
    TooLongForField {
        /// The value's length in bytes.
        len: usize,
        /// The declared bound.
        max: usize,
    },
    /// A `#[reverse_ts]` timestamp is outside `0..=i64::MAX`.
    TimestampOutOfRange {
        /// The offending timestamp.
        value: i128,
    },
    /// A `#[java]` field declared unsigned holds a value above the Java type's maximum, which
    /// Java would read as a negative number.
    JavaOutOfRange {
        /// The value.
        value: u64,
        /// The largest value the Java type holds.
        max: u64,
    },
    /// A `#[java(utf)]` value takes more than the 65,535 bytes of modified UTF-8 that
    /// `writeUTF` can write.
    TooLongForWriteUtf {
        /// Its length in modified UTF-8.
        len: usize,
    },
    /// A value of a text key (`#[rowkey(delimiter = ...)]`) holds the delimiter, so it could
    /// not be read back.
    DelimiterInValue {
        /// The delimiter.
        delimiter: u8,
        /// Where in the value's text.
        at: usize,
    },
    /// A `#[fixed(N)]` text of a text key ends with a space, which the space padding would
    /// swallow.
    TrailingSpace {
        /// The value's length in bytes.
        len: usize,
    },
    /// A number needs more characters than its `#[decimal(width = N)]` or
    /// `#[hex(width = N)]`.
    TooWideForText {
        /// The characters it needs.
        len: usize,
        /// The declared width.
        width: usize,
    },
    /// The whole key is longer than the key's `max_len`.
    KeyTooLong {
        /// The encoded key length.
        len: usize,
        /// The limit (`#[rowkey(key_limit = N)]`, default 32767).
        max: usize,
    },
    /// The caller's buffer cannot hold the key; nothing was written.
    BufferTooSmall {
        /// Bytes the key needs.
        needed: usize,
        /// Bytes the buffer had.
        available: usize,
    },
    /// The encoder wrote a different number of bytes than it measured: a bug in rowkey,
    /// reported as an error rather than a wrong key.
    Internal,
}

impl EncodeError {
    /// An error of `kind`, not yet attributed to a field.
    pub const fn new(kind: EncodeErrorKind) -> Self {
        EncodeError {
            field: "",
            offset: None,
            kind,
        }
    }

    /// Attributes the error to `field` unless a nested field already claimed it.
    #[must_use]
    pub const fn in_field(mut self, field: &'static str) -> Self {
        if self.field.is_empty() {
            self.field = field;
        }
        self
    }

    /// Shifts the error's offset by `start`, the offset at which the enclosing field or key
    /// begins: offsets accumulate as the error travels out of nested keys.
    #[must_use]
    pub const fn within(mut self, start: usize) -> Self {
        self.offset = Some(match self.offset {
            Some(o) => o + start,
            None => start,
        });
        self
    }

    /// The field whose value was refused (empty for whole-key errors).
    pub const fn field(&self) -> &'static str {
        self.field
    }

    /// The byte offset in the key at which the refused field starts; for a key over the key
    /// limit, the first byte past the limit.
    pub const fn offset(&self) -> Option<usize> {
        self.offset
    }

    /// What went wrong.
    pub const fn kind(&self) -> EncodeErrorKind {
        self.kind
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.field.is_empty(), self.offset) {
            (false, Some(off)) => write!(f, "field `{}` at byte {off}: ", self.field)?,
            (false, None) => write!(f, "field `{}`: ", self.field)?,
            (true, Some(off)) => write!(f, "at byte {off}: ")?,
            (true, None) => {}
        }
        match self.kind {
            EncodeErrorKind::TooLongForFixed { len, width } => write!(
                f,
                "value of {len} bytes does not fit `fixed({width})`; it is refused, never truncated"
            ),
            EncodeErrorKind::TrailingNul { len } => write!(
                f,
                "value of {len} bytes ends with a 0x00 byte, which the zero padding of a fixed field cannot keep"
            ),
            EncodeErrorKind::TooLongForField { len, max } => {
                write!(f, "value of {len} bytes is longer than `max_len({max})`")
            }
            EncodeErrorKind::TimestampOutOfRange { value } => write!(
                f,
                "timestamp {value} is outside 0..=i64::MAX, so `reverse_ts` cannot store it"
            ),
            EncodeErrorKind::JavaOutOfRange { value, max } => write!(
                f,
                "value {value} is above {max}, so Java would read it as a negative number; a `#[java]` field declared unsigned holds 0..={max} (declare it signed for equality scans over every value)"
            ),
            EncodeErrorKind::TooLongForWriteUtf { len } => write!(
                f,
                "value of {len} bytes of modified UTF-8 is longer than the 65535 that `writeUTF` can write"
            ),
            EncodeErrorKind::DelimiterInValue { delimiter, at } => write!(
                f,
                "the value holds the key's delimiter {} at byte {at}, so it could not be read back; it is refused",
                crate::fmt::binary(&[delimiter])
            ),
            EncodeErrorKind::TrailingSpace { len } => write!(
                f,
                "value of {len} bytes ends with a space, which the space padding of a fixed text field cannot keep"
            ),
            EncodeErrorKind::TooWideForText { len, width } => write!(
                f,
                "the number takes {len} characters, more than its width of {width}; it is refused, never truncated"
            ),
            EncodeErrorKind::KeyTooLong { len, max } => {
                write!(f, "key of {len} bytes is longer than the key limit of {max} bytes")
            }
            EncodeErrorKind::BufferTooSmall { needed, available } => write!(
                f,
                "buffer of {available} bytes cannot hold the {needed}-byte key; nothing was written"
            ),
            EncodeErrorKind::Internal => f.write_str(
                "internal error: the encoded length differs from the measured one (a rowkey bug, please report)",
            ),
        }
    }
}

impl std::error::Error for EncodeError {}

/// Why a byte string is not a key of the expected type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeError {
    field: &'static str,
    offset: usize,
    kind: DecodeErrorKind,
}

/// What went wrong while decoding; see [`DecodeError::kind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The input ended inside a field.
    Truncated {
        /// Bytes the field still needed (at least).
        needed: usize,
    },
    /// A `0x00` inside a variable-length field was followed by a byte other than `0xFF`
    /// (escaped zero) or `0x01` (terminator).
    BadEscape {
        /// The byte after the `0x00`.
        byte: u8,
    },
    /// A text field's bytes are not UTF-8.
    BadUtf8,
    /// A `bool` byte other than `0x00` or `0x01`.
    BadBool {
        /// The byte found.
        byte: u8,
    },
    /// An `Option` marker other than `0x00` or `0x01`.
    BadOption {
        /// The byte found.
        byte: u8,
    },
    /// A `#[reverse_ts]` field holds a value no timestamp in `0..=i64::MAX` encodes to.
    BadTimestamp,
    /// The bytes of a borrowed field (`&str`, `&[u8]`) are escaped or inverted, so they
    /// cannot be borrowed; declare the field as `String`, `Vec<u8>` or `Cow` instead.
    NeedsCopy,
    /// Bytes remain after the last field.
    TrailingBytes {
        /// How many bytes remain.
        count: usize,
    },
    /// The salt byte is not the one the salted fields hash to: the key is corrupt or was
    /// written under another schema.
    WrongSalt {
        /// The bucket the fields hash to.
        expected: u8,
        /// The byte found.
        found: u8,
    },
    /// The salt byte is not below the number of buckets.
    SaltOutOfRange {
        /// The byte found.
        found: u8,
        /// The number of buckets.
        buckets: u16,
    },
    /// A record-type tag that this schema does not know (a newer writer, or another table).
    UnknownTag {
        /// The tag byte found.
        tag: u8,
    },
    /// A variable-length value is longer than its `#[max_len(N)]` bound: the type could not
    /// have encoded it. (The bound does not change the bytes: to read keys written under a
    /// looser bound, raise it.)
    TooLongForField {
        /// The value's length in bytes.
        len: usize,
        /// The declared bound.
        max: usize,
    },
    /// The key is longer than the key limit `#[rowkey(key_limit = N)]`: the type could not
    /// have encoded it.
    KeyTooLong {
        /// The key's length.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// A schema-driven explain (`rowkey::explain_schema`, `rowkey-explain`) met a field type
    /// its schema does not describe well enough to decode (a user type outside rowkey's
    /// field types); the key type's own `explain` reads it.
    UnknownFieldType,
    /// A `#[row_span(N)]` field's bucket start is not a multiple of `N`, or its offset is not
    /// below `N` (or the two overflow the type): no value encodes to these bytes.
    BadRowSpan,
    /// A `#[java]` field declared unsigned holds a negative Java number (its top bit is set):
    /// declare the field signed to read it.
    JavaNegative,
    /// The key's hash prefix (`#[rowkey(hash_prefix(...))]`) is not the one its fields hash to:
    /// the key is corrupt or was written under another layout.
    WrongHashPrefix,
    /// A field of a text key that is not the last ends without the key's delimiter.
    MissingDelimiter {
        /// The delimiter.
        delimiter: u8,
    },
    /// The last field of a text key holds the key's delimiter: the key has more parts than
    /// the layout.
    DelimiterInValue {
        /// The delimiter.
        delimiter: u8,
    },
    /// A `#[decimal]` or `#[hex]` field's text is not a number as the layout writes it.
    BadTextNumber {
        /// What is wrong, in words.
        reason: &'static str,
    },
    /// A `#[java(utf)]` field's bytes are not modified UTF-8 as `DataOutput.writeUTF` writes
    /// it.
    BadModifiedUtf8 {
        /// What is wrong, in words.
        reason: &'static str,
    },
}

impl DecodeError {
    /// An error of `kind` at byte `offset`, not yet attributed to a field.
    pub const fn new(offset: usize, kind: DecodeErrorKind) -> Self {
        DecodeError {
            field: "",
            offset,
            kind,
        }
    }

    /// Attributes the error to `field` unless a nested field already claimed it.
    #[must_use]
    pub const fn in_field(mut self, field: &'static str) -> Self {
        if self.field.is_empty() {
            self.field = field;
        }
        self
    }

    /// The field being decoded when the error occurred (empty for whole-key errors).
    pub const fn field(&self) -> &'static str {
        self.field
    }

    /// The byte offset in the input where the problem was found.
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// What went wrong.
    pub const fn kind(&self) -> DecodeErrorKind {
        self.kind
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "at byte {}: ", self.offset)?;
        } else {
            write!(f, "field `{}` at byte {}: ", self.field, self.offset)?;
        }
        match self.kind {
            DecodeErrorKind::Truncated { needed } => {
                write!(f, "input ends early, at least {needed} more byte(s) needed")
            }
            DecodeErrorKind::BadEscape { byte } => write!(
                f,
                "0x00 followed by 0x{byte:02X}; expected 0xFF (escaped zero) or 0x01 (end of field)"
            ),
            DecodeErrorKind::UnknownFieldType => f.write_str(
                "the schema does not describe this field's type well enough to decode it; use the key type's own `explain`",
            ),
            DecodeErrorKind::BadUtf8 => f.write_str("text is not valid UTF-8"),
            DecodeErrorKind::WrongHashPrefix => f.write_str(
                "the hash prefix is not the one the fields hash to (a corrupt key, or another layout)",
            ),
            DecodeErrorKind::MissingDelimiter { delimiter } => write!(
                f,
                "the field does not end with the key's delimiter {}",
                crate::fmt::binary(&[delimiter])
            ),
            DecodeErrorKind::DelimiterInValue { delimiter } => write!(
                f,
                "the key's delimiter {} inside the last field: the key has more parts than the layout",
                crate::fmt::binary(&[delimiter])
            ),
            DecodeErrorKind::BadTextNumber { reason } => {
                write!(f, "not a number as the layout writes it: {reason}")
            }
            DecodeErrorKind::JavaNegative => f.write_str(
                "a negative Java number in a `#[java]` field declared unsigned; declare it signed to read it",
            ),
            DecodeErrorKind::BadModifiedUtf8 { reason } => write!(
                f,
                "text is not modified UTF-8 as `writeUTF` writes it: {reason}"
            ),
            DecodeErrorKind::BadRowSpan => f.write_str(
                "a row_span field's bucket start is not a multiple of its span, or its offset is not below it",
            ),
            DecodeErrorKind::BadBool { byte } => {
                write!(f, "bool byte 0x{byte:02X}; expected 0x00 or 0x01")
            }
            DecodeErrorKind::BadOption { byte } => {
                write!(f, "option marker 0x{byte:02X}; expected 0x00 or 0x01")
            }
            DecodeErrorKind::BadTimestamp => {
                f.write_str("reversed timestamp has its sign bit set; no timestamp in 0..=i64::MAX encodes to it")
            }
            DecodeErrorKind::NeedsCopy => f.write_str(
                "the stored bytes are escaped or inverted and cannot be borrowed; declare the field as `String`, `Vec<u8>` or `Cow`",
            ),
            DecodeErrorKind::TrailingBytes { count } => {
                write!(f, "{count} byte(s) left after the last field")
            }
            DecodeErrorKind::WrongSalt { expected, found } => write!(
                f,
                "salt byte is {found} but the salted fields hash to bucket {expected}"
            ),
            DecodeErrorKind::SaltOutOfRange { found, buckets } => {
                write!(f, "salt byte {found} is not below the {buckets} buckets")
            }
            DecodeErrorKind::UnknownTag { tag } => write!(f, "unknown record tag {tag}"),
            DecodeErrorKind::TooLongForField { len, max } => write!(
                f,
                "value of {len} bytes is longer than max_len({max}); this type cannot have written it"
            ),
            DecodeErrorKind::KeyTooLong { len, max } => write!(
                f,
                "key of {len} bytes is longer than the key limit of {max}; this type cannot have written it"
            ),
        }
    }
}

impl std::error::Error for DecodeError {}
