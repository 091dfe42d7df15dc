//! `RowKey::FINGERPRINT` computed at compile time, from what decides a field's bytes rather than
//! how its type is spelled.
//!
//! The derive describes a key's layout as text (`rowkey-layout-v1; no salt; 0: u64 natural;
//! ...`) and hashes it with 64-bit FNV-1a. Where it can tell a field's type from its tokens
//! (`u64`, `String`, `[u8; 16]`, `Option<i32>`) it writes the text itself, and the fingerprint
//! is a literal. Where it cannot (a type alias, a nested key, a path, a `Hashed<T>`, an array
//! whose length is a constant), it leaves a hole that the field type fills at compile time with
//! its [`TypeLayout`]: the same words the derive would have written for the resolved type
//! (`type Millis = u64` gives `u64`, so an alias keeps the fingerprint of the type it names,
//! and a change of what it names changes it), a nested key's own fingerprint, or, for a
//! hand-written [`Encode`](crate::Encode) type, a hash of its `ENCODING` and width. [`fingerprint`]
//! hashes the filled-in text exactly as the derive hashes the literal one, so a key without
//! holes has the same fingerprint either way.

/// The longest [`TypeLayout`] kept as text; a longer one (an `Option` nested many times) is
/// kept as the hash of its text, `h#` and 16 hex digits.
const CAP: usize = 64;

/// What a field type contributes to the layout fingerprint: a short text naming how its values
/// encode (`u64`, `text`, `bytes`, `[u8; 16]`, `option(u32)`, `key#…` for a nested key). Built
/// in constants; see the module docs.
#[derive(Clone, Copy, Debug)]
pub struct TypeLayout {
    buf: [u8; CAP],
    len: usize,
}

impl TypeLayout {
    /// The layout named `name` (an ASCII text of at most 64 bytes; a longer one is kept as its
    /// hash).
    pub const fn named(name: &str) -> Self {
        Self::concat(name.as_bytes(), &[], b"")
    }

    /// `Option<T>` of a type of layout `inner`: `option(inner)`.
    pub const fn option(inner: TypeLayout) -> Self {
        Self::concat(b"option(", inner.as_bytes(), b")")
    }

    /// `Hashed<T>` of an input of layout `inner`: `hashed(inner)`.
    pub const fn hashed(inner: TypeLayout) -> Self {
        Self::concat(b"hashed(", inner.as_bytes(), b")")
    }

    /// `[u8; N]`.
    pub const fn byte_array(n: usize) -> Self {
        let (digits, from) = decimal(n);
        Self::concat(b"[u8; ", digits.split_at(from).1, b"]")
    }

    /// A nested key type whose own layout fingerprint is `fingerprint`: `key#` and its 16 hex
    /// digits, so a change of the nested layout reaches every key that holds it.
    pub const fn key(fingerprint: u64) -> Self {
        Self::concat(b"key#", &hex(fingerprint), b"")
    }

    /// A hand-written encoding known by its description and width: `custom#` and the hex hash
    /// of the description, then the fixed width if it has one.
    pub const fn custom(encoding: &str, fixed_width: Option<usize>) -> Self {
        let h = hex(fnv_bytes(FNV_OFFSET, encoding.as_bytes()));
        let base = Self::concat(b"custom#", &h, b"");
        match fixed_width {
            Some(n) => {
                let (digits, from) = decimal(n);
                Self::concat(base.as_bytes(), b"/", digits.split_at(from).1)
            }
            None => base,
        }
    }

    /// The text.
    pub const fn as_bytes(&self) -> &[u8] {
        self.buf.split_at(self.len).0
    }

    /// `a`, `b` and `c` one after the other; the hash of them when they do not fit.
    const fn concat(a: &[u8], b: &[u8], c: &[u8]) -> Self {
        let total = a.len() + b.len() + c.len();
        let mut out = TypeLayout {
            buf: [0; CAP],
            len: 0,
        };
        if total > CAP {
            let h = fnv_bytes(fnv_bytes(fnv_bytes(FNV_OFFSET, a), b), c);
            out.push(b"h#");
            out.push(&hex(h));
            return out;
        }
        out.push(a);
        out.push(b);
        out.push(c);
        out
    }

    const fn push(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() {
            self.buf[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
    }
}

/// A piece of one part of a layout description: text the derive wrote, or a field type's
/// [`TypeLayout`].
#[derive(Clone, Copy, Debug)]
pub enum LayoutPiece {
    /// Text written by the derive.
    Text(&'static str),
    /// A field type's layout.
    Type(TypeLayout),
}

/// The version tag that starts every layout description.
const VERSION: &[u8] = b"rowkey-layout-v1; ";
/// Part slots in the fingerprint's low 32 bits: part `i` goes to nibble `i % SLOTS`.
const SLOTS: usize = 8;

/// The fingerprint of a layout described by `parts` (each a sequence of pieces): the high 32
/// bits of the FNV-1a hash of `rowkey-layout-v1; ` and the parts joined by `; `, then one 4-bit
/// check per slot of parts (the low bits of each part's own hash, part `i` in nibble `i % 8`),
/// so that a changed fingerprint can say which part changed. The derive computes the same
/// function on literal text.
pub const fn fingerprint(parts: &[&[LayoutPiece]]) -> u64 {
    let mut whole = fnv_bytes(FNV_OFFSET, VERSION);
    let mut slots = 0u64;
    let mut i = 0;
    while i < parts.len() {
        if i > 0 {
            whole = fnv_bytes(whole, b"; ");
        }
        let mut own = FNV_OFFSET;
        let mut j = 0;
        while j < parts[i].len() {
            let bytes = match &parts[i][j] {
                LayoutPiece::Text(t) => t.as_bytes(),
                LayoutPiece::Type(l) => l.as_bytes(),
            };
            whole = fnv_bytes(whole, bytes);
            own = fnv_bytes(own, bytes);
            j += 1;
        }
        slots ^= (own & 0xf) << (4 * (i % SLOTS));
        i += 1;
    }
    (whole & 0xffff_ffff_0000_0000) | slots
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Continues a 64-bit FNV-1a hash in state `h` over `bytes`.
const fn fnv_bytes(mut h: u64, bytes: &[u8]) -> u64 {
    let mut i = 0;
    while i < bytes.len() {
        h = (h ^ bytes[i] as u64).wrapping_mul(FNV_PRIME);
        i += 1;
    }
    h
}

/// `n` in decimal: the digits are `out[from..]`.
const fn decimal(n: usize) -> ([u8; 20], usize) {
    let mut out = [0u8; 20];
    let mut from = out.len();
    let mut v = n;
    loop {
        from -= 1;
        out[from] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            return (out, from);
        }
    }
}

/// `v` as 16 lowercase hex digits.
const fn hex(v: u64) -> [u8; 16] {
    let mut out = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        let nibble = ((v >> (60 - 4 * i)) & 0xf) as u8;
        out[i] = if nibble < 10 {
            b'0' + nibble
        } else {
            b'a' + nibble - 10
        };
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(l: TypeLayout) -> String {
        String::from_utf8(l.as_bytes().to_vec()).unwrap()
    }

    #[test]
    fn layouts_read_as_the_derive_writes_them() {
        assert_eq!(text(TypeLayout::named("u64")), "u64");
        assert_eq!(text(TypeLayout::byte_array(16)), "[u8; 16]");
        assert_eq!(text(TypeLayout::byte_array(0)), "[u8; 0]");
        assert_eq!(
            text(TypeLayout::option(TypeLayout::named("text"))),
            "option(text)"
        );
        assert_eq!(text(TypeLayout::key(0xab)), "key#00000000000000ab");
        assert_eq!(
            text(TypeLayout::custom("x", Some(12))),
            format!("custom#{:016x}/12", fnv_bytes(FNV_OFFSET, b"x"))
        );
        // Too long to keep: the part that overflowed is kept as its hash, and every depth
        // stays distinct.
        let mut deep = TypeLayout::named("u64");
        let mut seen = std::collections::HashSet::new();
        for _ in 0..20 {
            deep = TypeLayout::option(deep);
            assert!(deep.as_bytes().len() <= CAP);
            assert!(seen.insert(text(deep)));
        }
        assert!(text(deep).contains("h#"), "{}", text(deep));
    }

    #[test]
    fn the_fingerprint_hashes_the_joined_text() {
        let parts: &[&[LayoutPiece]] = &[
            &[LayoutPiece::Text("no salt")],
            &[
                LayoutPiece::Text("0: "),
                LayoutPiece::Type(TypeLayout::named("u64")),
                LayoutPiece::Text(" natural"),
            ],
        ];
        let whole = fnv_bytes(FNV_OFFSET, b"rowkey-layout-v1; no salt; 0: u64 natural");
        let slots = (fnv_bytes(FNV_OFFSET, b"no salt") & 0xf)
            | ((fnv_bytes(FNV_OFFSET, b"0: u64 natural") & 0xf) << 4);
        assert_eq!(fingerprint(parts), (whole & 0xffff_ffff_0000_0000) | slots);
    }
}
