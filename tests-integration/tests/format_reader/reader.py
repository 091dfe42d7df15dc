#!/usr/bin/env python3
"""A reader of rowkey keys written from FORMAT.md alone (no Rust, no rowkey code consulted).

Usage: reader.py VECTORS.json

Decodes every vector's bytes with the neutral schema the file gives, compares the values with
the declared ones, recomputes the salt byte (FORMAT.md section 3) and, for hashed fields with a
declared input, the digest (2.14). Prints one line per vector and "N passed, M failed".
Standard library only: what a Python team would have.
"""

import hashlib
import json
import struct
import sys


class Malformed(Exception):
    pass


class Reader:
    """Bytes read front to back; `invert` reads a #[desc] field (2.12) by inverting each byte."""

    def __init__(self, data, pos=0):
        self.data = data
        self.pos = pos
        self.invert = False

    def byte(self):
        if self.pos >= len(self.data):
            raise Malformed("the key ends early at byte %d" % self.pos)
        b = self.data[self.pos]
        self.pos += 1
        return b ^ 0xFF if self.invert else b

    def take(self, n):
        return bytes(self.byte() for _ in range(n))


INT_WIDTHS = {"u8": 1, "u16": 2, "u32": 4, "u64": 8, "u128": 16,
              "i8": 1, "i16": 2, "i32": 4, "i64": 8, "i128": 16}


def fixed_width(field):
    """The width of a field whose encoding has one, else None."""
    t = field["type"]
    if "fixed" in field:
        return field["fixed"]
    if field.get("reverse_ts"):
        return 8
    if t in INT_WIDTHS:
        return INT_WIDTHS[t]
    if t == "bool":
        return 1
    if t in ("f32", "f64"):
        return 4 if t == "f32" else 8
    if t == "array":
        return field["len"]
    if t == "hashed":
        return field["len"]
    return None


def read_escaped(r):
    """2.5: bytes until 00 01, each 00 ff read as 00."""
    out = bytearray()
    while True:
        b = r.byte()
        if b != 0x00:
            out.append(b)
            continue
        nxt = r.byte()
        if nxt == 0xFF:
            out.append(0)
        elif nxt == 0x01:
            return bytes(out)
        else:
            raise Malformed("00 followed by %02x" % nxt)


def read_int(r, t):
    """2.1 and 2.2."""
    width = INT_WIDTHS[t]
    v = int.from_bytes(r.take(width), "big")
    if t.startswith("i"):
        v ^= 1 << (8 * width - 1)          # flip the sign bit back
        if v >= 1 << (8 * width - 1):
            v -= 1 << (8 * width)          # two's complement
    return v


def read_float(r, t):
    """2.4: first bit set -> clear it; else invert every bit."""
    width = 4 if t == "f32" else 8
    bits = int.from_bytes(r.take(width), "big")
    top = 1 << (8 * width - 1)
    bits = bits ^ top if bits & top else bits ^ ((1 << (8 * width)) - 1)
    return struct.unpack(">f" if width == 4 else ">d", bits.to_bytes(width, "big"))[0]


def read_field(r, field):
    """One field (section 2), with its attributes."""
    saved = r.invert
    if field.get("desc"):
        r.invert = not r.invert
    try:
        return read_plain(r, field)
    finally:
        r.invert = saved


def read_java_number(r, t):
    """2.15 #[java]: two's complement big-endian, floats as raw IEEE bits; an unsigned type is a
    Java number that is never negative."""
    if t in ("f32", "f64"):
        width = 4 if t == "f32" else 8
        return struct.unpack(">f" if width == 4 else ">d", r.take(width))[0]
    width = INT_WIDTHS[t]
    v = int.from_bytes(r.take(width), "big")
    if v >= 1 << (8 * width - 1):
        if t.startswith("u"):
            raise Malformed("a negative Java number in an unsigned field")
        v -= 1 << (8 * width)
    return v


def read_modified_utf8(raw):
    """2.15 #[java(utf)]: UTF-16 code units, U+0000 as c0 80, nothing writeUTF never writes."""
    units, i = [], 0
    while i < len(raw):
        b = raw[i]
        if b == 0:
            raise Malformed("a raw 00 in modified UTF-8")
        if b < 0x80:
            units.append(b)
            i += 1
        elif 0xC0 <= b <= 0xDF and i + 1 < len(raw) and raw[i + 1] & 0xC0 == 0x80:
            u = ((b & 0x1F) << 6) | (raw[i + 1] & 0x3F)
            if u != 0 and u < 0x80:
                raise Malformed("overlong 2-byte form")
            units.append(u)
            i += 2
        elif 0xE0 <= b <= 0xEF and i + 2 < len(raw) and raw[i + 1] & 0xC0 == 0x80 and raw[i + 2] & 0xC0 == 0x80:
            u = ((b & 0x0F) << 12) | ((raw[i + 1] & 0x3F) << 6) | (raw[i + 2] & 0x3F)
            if u < 0x800:
                raise Malformed("overlong 3-byte form")
            units.append(u)
            i += 3
        else:
            raise Malformed("not modified UTF-8 at byte %d" % i)
    data = b"".join(u.to_bytes(2, "big") for u in units)
    return data.decode("utf-16-be")  # refuses a surrogate without its pair


def read_plain(r, field):
    t = field["type"]
    if field.get("java"):                                        # 2.15
        return read_java_number(r, t)
    if field.get("java_utf"):                                    # 2.15
        n = int.from_bytes(r.take(2), "big")
        return read_modified_utf8(r.take(n))
    if field.get("rest"):                                        # 2.15
        raw = r.take(len(r.data) - r.pos)
        return raw.decode("utf-8") if t == "text" else {"hex": raw.hex()}
    if field.get("reverse_ts"):                                  # 2.11
        v = (2**63 - 1) - int.from_bytes(r.take(8), "big")
        if v < 0:
            raise Malformed("a reverse timestamp above i64::MAX")
        return v
    if field.get("reverse"):                                     # 2.13
        raw = r.take(fixed_width(field))[::-1]
        return read_plain(Reader(raw), {k: v for k, v in field.items() if k != "reverse"})
    if "fixed" in field:                                         # 2.7
        raw = r.take(field["fixed"]).rstrip(b"\x00")
        return raw.decode("utf-8") if t == "text" else {"hex": raw.hex()}
    if t in INT_WIDTHS:
        return read_int(r, t)
    if t == "bool":                                              # 2.3
        b = r.byte()
        if b > 1:
            raise Malformed("bool byte %02x" % b)
        return b == 1
    if t in ("f32", "f64"):
        return read_float(r, t)
    if t == "text":
        return read_escaped(r).decode("utf-8")
    if t == "bytes":
        return {"hex": read_escaped(r).hex()}
    if t == "array":                                             # 2.6
        return {"hex": r.take(field["len"]).hex()}
    if t == "option":                                            # 2.9
        marker = r.byte()
        if marker == 0:
            return None
        if marker != 1:
            raise Malformed("option marker %02x" % marker)
        return read_field(r, field["of"])
    if t == "key":                                               # 2.10
        return {f["name"]: read_field(r, f) for f in field["fields"]}
    if t == "hashed":                                            # 2.14
        return {"hex": r.take(field["len"]).hex()}
    raise Malformed("unknown type %s" % t)


def java_hash(data):
    """3.2: Arrays.hashCode(byte[]) in 32-bit wrapping arithmetic."""
    h = 1
    for b in data:
        signed = b - 256 if b >= 128 else b
        h = (31 * h + signed) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def salt_byte(strategy, buckets, salted):
    """Section 3."""
    if strategy == "md5":
        return int.from_bytes(hashlib.md5(salted).digest()[:8], "big") % buckets
    if strategy in ("java", "phoenix"):
        # |h rem N| with Java's truncating remainder is |h| mod N.
        return abs(java_hash(salted)) % buckets
    if strategy == "mod":
        return int.from_bytes(salted, "big") % buckets
    if strategy == "xxh3":
        try:
            import xxhash  # not in Python's standard library: checked where it is installed
        except ImportError:
            return None
        return xxhash.xxh3_64_intdigest(salted) % buckets
    return None


def parse_text_number(text, t, radix, width, upper):
    """2.16: a number as the layout writes it, every other spelling refused."""
    if width and len(text) != width:
        raise Malformed("not the declared width")
    negative = radix == 10 and t.startswith("i") and text.startswith("-")
    body = text[1:] if negative else text
    digits = "0123456789" if radix == 10 else ("0123456789ABCDEF" if upper else "0123456789abcdef")
    if not body or any(c not in digits for c in body):
        raise Malformed("not a number of this encoding: %r" % text)
    v = int(body, radix)
    canonical = format(v, "d" if radix == 10 else ("X" if upper else "x"))
    if not width and body != canonical:
        raise Malformed("a leading zero")
    if negative and v == 0:
        raise Malformed("-0")
    return -v if negative else v


def read_text_key(vector, data):
    """2.16 (and 2.17 in a text key): fields split at the delimiter, the last to the end."""
    d = vector["delimiter"].encode()
    parts = data.split(d)
    fields = vector["fields"]
    prefix = vector.get("hash_prefix")
    if prefix:
        digest_hex, parts = parts[0].decode("ascii"), parts[1:]
    if len(parts) != len(fields):
        raise Malformed("%d parts for %d fields" % (len(parts), len(fields)))
    values, texts = {}, {}
    for f, raw in zip(fields, parts):
        t = f["type"]
        texts[f["name"]] = raw
        text = raw.decode("utf-8")
        if "decimal" in f:
            values[f["name"]] = parse_text_number(text, t, 10, f["decimal"], False)
        elif "hex" in f:
            values[f["name"]] = parse_text_number(text, t, 16, f["hex"], f.get("upper", False))
        elif f.get("reverse"):
            values[f["name"]] = text[::-1]
        else:
            values[f["name"]] = text
    if prefix:
        want = hashlib.md5(texts[prefix["of"]]).hexdigest()[: prefix["len"]]
        want = want.upper() if prefix.get("upper") else want
        if digest_hex != want:
            raise Malformed("hash prefix %s, the field hashes to %s" % (digest_hex, want))
    return values


def read_key(vector, data):
    """Sections 1, 3 and 4: the values, and the salt byte checked."""
    if "delimiter" in vector:
        return read_text_key(vector, data)
    prefix = vector.get("hash_prefix")
    if prefix:                                                   # 2.17, a binary key
        r = Reader(data, prefix["len"])
        values = {}
        spans = {}
        for f in vector["fields"]:
            start = r.pos
            values[f["name"]] = read_field(r, f)
            spans[f["name"]] = data[start:r.pos]
        if r.pos != len(data):
            raise Malformed("bytes left after the last field")
        want = hashlib.md5(spans[prefix["of"]]).digest()[: prefix["len"]]
        if data[: prefix["len"]] != want:
            raise Malformed("hash prefix is not the field's digest")
        return values
    salt = vector.get("salt")
    r = Reader(data, 1 if salt else 0)
    values = {}
    fields = vector.get("prefix") or vector["fields"]
    salted_end = None
    for i, f in enumerate(fields):
        values[f["name"]] = read_field(r, f)
        if salt and i == salt["field"]:
            salted_end = r.pos
    if "variants" in vector:                                     # section 4
        tag = r.byte()
        match = [v for v in vector["variants"] if v["tag"] == tag]
        if not match:
            raise Malformed("unknown tag %d" % tag)
        values["record"] = match[0]["name"]
        for f in match[0]["fields"]:
            values[f["name"]] = read_field(r, f)
    if r.pos != len(data):
        raise Malformed("%d bytes left after the last field" % (len(data) - r.pos))
    if salt:
        salted = data[1:] if salt["hash"] == "phoenix" else data[1:salted_end]
        want = salt_byte(salt["hash"], salt["buckets"], salted)
        if want is not None and want != data[0]:
            raise Malformed("salt byte %d, the %s hash gives %d" % (data[0], salt["hash"], want))
    return values


def read_row_span(vector, data):
    """Section 5: the span field as bucket start then offset; the row key ends after the start."""
    r = Reader(data)
    values = {}
    row_key_len = None
    for f in vector["fields"]:
        if "row_span" in f:
            n = f["row_span"]
            width = INT_WIDTHS[f["type"]]
            start = int.from_bytes(r.take(width), "big")
            row_key_len = r.pos
            w = next(w for w in (1, 2, 4, 8) if n - 1 < 1 << (8 * w))
            offset = int.from_bytes(r.take(w), "big")
            if start % n != 0 or offset >= n:
                raise Malformed("not a canonical row_span value")
            values[f["name"]] = start + offset
        else:
            values[f["name"]] = read_field(r, f)
    if r.pos != len(data):
        raise Malformed("bytes left after the last field")
    if row_key_len != vector["row_key_len"]:
        raise Malformed("row key of %d bytes, expected %d" % (row_key_len, vector["row_key_len"]))
    return values


def read_cell(data):
    """Section 7: escape(row) 00 01 escape(family) 00 01 qualifier."""
    r = Reader(data)
    row = read_escaped(r)
    family = read_escaped(r).decode("utf-8")
    qualifier = data[r.pos:]
    return {"row": {"hex": row.hex()}, "family": family, "qualifier": {"hex": qualifier.hex()}}


def hashed_inputs_agree(vector):
    """2.14: the digest of the declared input, truncated to the field's length."""
    for f in vector.get("fields", []):
        given = vector.get("hash_input", {}).get(f["name"])
        if given is None:
            continue
        if "text" in given:
            data = given["text"].encode("utf-8")
        else:
            (t, v), = given.items()
            data = (v % (1 << (8 * INT_WIDTHS[t]))).to_bytes(INT_WIDTHS[t], "big")
        digest = hashlib.md5(data).digest()[: f["len"]].hex()
        if digest != vector["value"][f["name"]]["hex"]:
            raise Malformed("md5 of the input is %s" % digest)


def read_column(t, data):
    """Section 6: a column's value, as HBase's Bytes.toBytes writes it."""
    if t in INT_WIDTHS:
        if len(data) != INT_WIDTHS[t]:
            raise Malformed("%d bytes for a %s column" % (len(data), t))
        return int.from_bytes(data, "big", signed=t.startswith("i"))
    if t in ("f32", "f64"):
        if len(data) != (4 if t == "f32" else 8):
            raise Malformed("%d bytes for a %s column" % (len(data), t))
        return struct.unpack(">f" if t == "f32" else ">d", data)[0]
    if t == "bool":
        if len(data) != 1:
            raise Malformed("%d bytes for a bool column" % len(data))
        return data[0] != 0
    if t == "text":
        return data.decode("utf-8")
    raise Malformed("unknown column type %s" % t)


def read_uid(uid, value):
    """Section 9: a lookup table's cell (its row, family and qualifier as declared, `value` its
    value): the name and id it holds."""
    width, kind = uid["width"], uid["kind"]
    row = bytes.fromhex(uid["row"]["hex"])
    if uid["qualifier"] != kind:
        raise Malformed("qualifier %r is not the kind %r" % (uid["qualifier"], kind))
    if uid["cell"] == "forward":
        if uid["family"] != "id" or len(value) != width:
            raise Malformed("a forward cell is family id, an id of %d bytes" % width)
        if row == b"\x00":
            raise Malformed("the name 00 is the counter's row")
        return {"name": row.decode("utf-8"), "id": int.from_bytes(value, "big")}
    if uid["cell"] == "reverse":
        if uid["family"] != "name" or len(row) != width:
            raise Malformed("a reverse row is an id of %d bytes, family name" % width)
        return {"name": value.decode("utf-8"), "id": int.from_bytes(row, "big")}
    if uid["cell"] == "last_id":
        if row != b"\x00" or uid["family"] != "id" or len(value) != 8:
            raise Malformed("the last id is row 00, family id, a counter of 8 bytes")
        return {"id": int.from_bytes(value, "big", signed=True)}
    raise Malformed("unknown lookup-table cell %r" % uid["cell"])


PHOENIX_WIDTHS = {"TINYINT": 1, "SMALLINT": 2, "INTEGER": 4, "BIGINT": 8,
                  "UNSIGNED_TINYINT": 1, "UNSIGNED_SMALLINT": 2, "UNSIGNED_INT": 4,
                  "UNSIGNED_LONG": 8, "FLOAT": 4, "DOUBLE": 8, "BOOLEAN": 1, "DATE": 8,
                  "TIMESTAMP": 12}


def phoenix_width(col):
    """A Phoenix type's fixed width (None: variable)."""
    if col["type"] in ("CHAR", "BINARY"):
        return col["width"]
    return PHOENIX_WIDTHS.get(col["type"])


def flipped_signed(data):
    """Two's complement big-endian with the top bit flipped (section 2.2's signed integers)."""
    top = 1 << (8 * len(data) - 1)
    u = int.from_bytes(data, "big") ^ top
    return u - 2 * top if u & top else u


def read_phoenix_value(col, data):
    """Section 10: a value's bytes (ascending), as Phoenix 5.2.1 writes them."""
    t = col["type"]
    w = phoenix_width(col)
    if w is not None and len(data) != w:
        raise Malformed("%d bytes for a %s" % (len(data), t))
    if t in ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "DATE"):
        return flipped_signed(data)
    if t.startswith("UNSIGNED_"):
        v = int.from_bytes(data, "big")
        if v >= 1 << (8 * len(data) - 1):
            raise Malformed("an unsigned Phoenix value over 2^(8n-1) - 1")
        return v
    if t in ("FLOAT", "DOUBLE"):
        n = 8 * len(data)
        mask, top = (1 << n) - 1, 1 << (n - 1)
        x = (int.from_bytes(data, "big") - 1) & mask      # undo the + 1, wrapping
        b = (x ^ top) if x & top else (~x & mask)          # positive values had their top bit set
        return struct.unpack(">f" if n == 32 else ">d", b.to_bytes(len(data), "big"))[0]
    if t == "BOOLEAN":
        if data not in (b"\x00", b"\x01"):
            raise Malformed("a BOOLEAN other than 00 or 01")
        return data == b"\x01"
    if t == "VARCHAR":
        if b"\x00" in data:
            raise Malformed("a VARCHAR with a 00 byte")
        return data.decode("utf-8")
    if t == "CHAR":
        return data.decode("ascii").rstrip(" ")
    if t in ("BINARY", "VARBINARY"):
        return {"hex": data.hex()}
    if t == "TIMESTAMP":
        millis = flipped_signed(data[:8])
        nanos = int.from_bytes(data[8:], "big")
        if nanos > 999_999:
            raise Malformed("TIMESTAMP nanos over 999,999")
        return {"millis": millis, "nanos": nanos}
    raise Malformed("unknown Phoenix type %s" % t)


def read_phoenix_key(spec, data):
    """Section 10: a Phoenix row key, each primary-key column's value (None for a null)."""
    r = Reader(data)
    if spec.get("salt_buckets"):
        salt = r.take(1)[0]
        if salt != salt_byte("phoenix", spec["salt_buckets"], data[1:]):
            raise Malformed("the salt byte is not the hash of the key after it")
    cols = spec["columns"]
    values = {}
    for i, col in enumerate(cols):
        desc = col.get("desc", False)
        last = i == len(cols) - 1
        if r.pos == len(data):                                   # trailing nulls left out
            values[col["name"]] = None
            continue
        w = phoenix_width(col)
        if w is not None:
            raw = r.take(w)
        else:
            sep = 0xFF if desc else 0x00
            end = data.find(bytes([sep]), r.pos)
            if end < 0:
                if not last or desc:
                    raise Malformed("a variable-width column without its separator")
                end = len(data)
            raw = r.take(end - r.pos)
            if end < len(data):
                r.take(1)
            if desc and not raw:
                raise Malformed("a DESC column's FF after an empty value")
        if desc:
            raw = bytes(b ^ 0xFF for b in raw)
        values[col["name"]] = None if (w is None and not raw) else read_phoenix_value(col, raw)
    if r.pos != len(data):
        raise Malformed("bytes left after the last key column")
    return values


def read_any(v, data):
    """What `data` holds as a key (or cell) of vector `v`'s declaration, and what `v` holds."""
    if "phoenix" in v:
        return read_phoenix_value(v["phoenix"], data), v["value"]
    if "phoenix_key" in v:
        return read_phoenix_key(v["phoenix_key"], data), v["value"]
    if "uid" in v:
        return read_uid(v["uid"], data), v["value"]
    if "column" in v:
        return read_column(v["column"], data), v["value"]
    if "cell" in v:
        return read_cell(data), v["cell"]
    if any("row_span" in f for f in v.get("fields", [])):
        return read_row_span(v, data), v["value"]
    return read_key(v, data), v["value"]


def fnv1a(data, h=0xCBF29CE484222325):
    """FNV-1a, 64 bits."""
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def layout_fingerprint(text):
    """Section 8: the high 32 bits of FNV-1a of the text, and per part i (after the version
    tag) the low 4 bits of its own FNV-1a XORed into nibble i mod 8."""
    tag = "rowkey-layout-v1; "
    if not text.startswith(tag):
        raise Malformed("not a layout text")
    low = 0
    for i, part in enumerate(text[len(tag):].split("; ")):
        low ^= (fnv1a(part.encode("utf-8")) & 0xF) << (4 * (i % 8))
    return (fnv1a(text.encode("utf-8")) >> 32) << 32 | low


def main(path):
    with open(path) as fh:
        doc = json.load(fh)
    vectors = doc["vectors"]
    passed = failed = 0
    for v in vectors:
        data = bytes.fromhex(v["hex"])
        try:
            got, want = read_any(v, data)
            if "fields" in v and not any("row_span" in f for f in v["fields"]):
                hashed_inputs_agree(v)
            # Floats by their bits: -0.0 and 0.0 are different values here (section 10).
            same = (struct.pack(">d", got) == struct.pack(">d", want)
                    if isinstance(want, float) and isinstance(got, float) else got == want)
            if not same:
                raise Malformed("read %r, expected %r" % (got, want))
            passed += 1
            print("ok    %-22s FORMAT.md %s" % (v["name"], v.get("section", "")))
        except (Malformed, UnicodeDecodeError, KeyError, ValueError) as e:
            failed += 1
            print("FAIL  %-22s %s" % (v["name"], e))
    # Section 12: keys no layout writes, each refused.
    by_name = {v["name"]: v for v in vectors}
    for rj in doc.get("rejects", []):
        try:
            got, _ = read_any(by_name[rj["like"]], bytes.fromhex(rj["hex"]))
            failed += 1
            print("FAIL  %-22s read %r: FORMAT.md %s refuses it (%s)" % (rj["name"], got, rj["section"], rj["why"]))
        except (Malformed, UnicodeDecodeError, ValueError) as e:
            passed += 1
            print("ok    %-22s refused: %s" % (rj["name"], e))
    # Section 8: each fingerprint recomputed from its layout text.
    for fp in doc.get("fingerprints", []):
        got = "%016x" % layout_fingerprint(fp["fingerprint_text"])
        if got == fp["fingerprint"]:
            passed += 1
            print("ok    %-22s FORMAT.md 8 (%s)" % (fp["name"], got))
        else:
            failed += 1
            print("FAIL  %-22s computed %s, expected %s" % (fp["name"], got, fp["fingerprint"]))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
