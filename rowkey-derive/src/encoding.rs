//! What a field's attributes choose, known from the tokens alone: its [`Encoding`] and, where
//! the attribute or the type fixes it, its width. Validation (the key-limit check) and the
//! model both read it, so it sits before both stages.

use crate::ast::{Field, TyClass};

/// The field's encoding, one per field; `desc` wraps it.
#[derive(Clone, Copy)]
pub enum Encoding {
    Natural,
    Fixed(usize),
    MaxLen(usize),
    ReverseTs,
    Reverse,
    Md5(usize),
    /// `#[row_span(N)]`: the bucket start, then the offset.
    RowSpan(u64),
    /// `#[java]`: Java's `Bytes.toBytes` / `DataOutput` bytes of a number.
    Java,
    /// `#[java(utf)]`: `DataOutput.writeUTF`.
    JavaUtf,
    /// `#[rest]`: the rest of the key, as written.
    Rest,
    /// A text field of a text key (`#[rowkey(delimiter = ...)]`): its text as it is.
    Text,
    /// `#[reverse]` on a text field of a text key: its characters reversed.
    ReversedText,
    /// `#[decimal]` (0: unpadded) or `#[decimal(width = N)]`.
    Decimal(usize),
    /// `#[hex]` / `#[hex(width = N, upper)]`: (width, 0 unpadded; uppercase).
    Hex(usize, bool),
    /// `#[fixed(N)]` on a text field of a text key: space-padded to `N` bytes.
    PaddedText(usize),
}

impl Encoding {
    /// The encoding a field's attributes choose in a key with `delimiter` (validation has
    /// refused combinations).
    pub fn in_key(f: &Field, delimiter: Option<u8>) -> Encoding {
        let a = &f.attrs;
        match (delimiter, Encoding::of(f)) {
            (_, _) if a.decimal.is_some() => Encoding::Decimal(a.decimal.map_or(0, |d| d.value)),
            (_, _) if a.hex.is_some() => {
                let (w, upper) = a.hex.map_or((0, false), |h| h.value);
                Encoding::Hex(w, upper)
            }
            (Some(_), Encoding::Reverse) => Encoding::ReversedText,
            (Some(_), Encoding::Fixed(n)) => Encoding::PaddedText(n),
            (Some(_), Encoding::Natural) => Encoding::Text,
            (_, other) => other,
        }
    }

    /// The encoding a field's attributes choose outside a text key (validation has refused
    /// combinations).
    pub fn of(f: &Field) -> Encoding {
        let a = &f.attrs;
        if let Some(n) = a.fixed {
            Encoding::Fixed(n.value)
        } else if let Some(n) = a.max_len {
            Encoding::MaxLen(n.value)
        } else if let Some(n) = a.hash {
            Encoding::Md5(n.value)
        } else if a.reverse_ts.is_some() {
            Encoding::ReverseTs
        } else if a.reverse.is_some() {
            Encoding::Reverse
        } else if let Some(n) = a.row_span {
            Encoding::RowSpan(n.value)
        } else if let Some(j) = a.java {
            match j.value {
                crate::attr::Java::Bytes => Encoding::Java,
                crate::attr::Java::Utf => Encoding::JavaUtf,
            }
        } else if a.rest.is_some() {
            Encoding::Rest
        } else {
            Encoding::Natural
        }
    }

    /// The width of every value, when the attribute or the type fixes it: the derive's one
    /// statement of the runtime codecs' `FIXED_WIDTH`, for what must be known while expanding
    /// (compile-time limit checks, the layout table in rustdoc). The generated `SCHEMA` takes
    /// the runtime's constants; the golden expansions show both.
    pub fn fixed_width(self, class: TyClass) -> Option<usize> {
        match self {
            Encoding::Fixed(n) | Encoding::Md5(n) | Encoding::PaddedText(n) => Some(n),
            Encoding::ReverseTs => Some(8),
            Encoding::MaxLen(_)
            | Encoding::JavaUtf
            | Encoding::Rest
            | Encoding::Text
            | Encoding::ReversedText => None,
            Encoding::Decimal(w) | Encoding::Hex(w, _) => (w > 0).then_some(w),
            Encoding::RowSpan(n) => class.fixed_width().map(|w| w + row_span_offset_width(n)),
            Encoding::Natural | Encoding::Reverse | Encoding::Java => class.fixed_width(),
        }
    }

    /// An upper bound on the width (the runtime's `MAX_WIDTH`): a `max_len(N)` value may escape
    /// every byte to two, plus the terminator.
    pub fn max_width(self, class: TyClass) -> Option<usize> {
        match self {
            Encoding::MaxLen(n) => Some(2 * n + 2),
            Encoding::JavaUtf => Some(2 + 0xFFFF),
            Encoding::Decimal(0) => match class {
                TyClass::Int { width, .. } => Some([0, 4, 6, 0, 11, 0, 0, 0, 20][width.min(8)]),
                _ => None,
            },
            Encoding::Hex(0, _) => match class {
                TyClass::Int { width, .. } => Some(2 * width),
                _ => None,
            },
            other => other.fixed_width(class),
        }
    }
}

/// The runtime's `row_span_offset_width`: the fewest of 1, 2, 4 or 8 bytes that hold `n - 1`.
pub fn row_span_offset_width(n: u64) -> usize {
    match n {
        0..=0x100 => 1,
        0x101..=0x1_0000 => 2,
        0x1_0001..=0x1_0000_0000 => 4,
        _ => 8,
    }
}
