//! Allocation counts, measured with a counting global allocator: encoding into a slice or a
//! buffer with room and decoding borrowed keys allocate nothing; `to_bytes` allocates exactly
//! once, exactly the key's size.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

mod common;

use common::Event;
use rowkey::RowKey;

struct Counting;

thread_local! {
    static COUNT: Cell<usize> = const { Cell::new(0) };
    static BYTES: Cell<usize> = const { Cell::new(0) };
}

fn record(size: usize) {
    // `try_with`: the allocator runs during thread teardown too.
    let _ = COUNT.try_with(|c| c.set(c.get() + 1));
    let _ = BYTES.try_with(|b| b.set(b.get() + size));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Allocations and bytes allocated by `f` on this thread.
fn count<R>(f: impl FnOnce() -> R) -> (R, usize, usize) {
    let (c0, b0) = (COUNT.with(Cell::get), BYTES.with(Cell::get));
    let r = f();
    (r, COUNT.with(Cell::get) - c0, BYTES.with(Cell::get) - b0)
}

#[derive(RowKey, Debug, PartialEq)]
struct HostKey<'a> {
    #[salt(buckets = 8)]
    host: &'a str,
    #[desc]
    level: u8,
    path: &'a [u8],
    #[reverse_ts]
    ts: i64,
    tag: Option<&'a str>,
}

#[test]
fn counting_allocator_sees_allocations() {
    // Guards the guard: a test that cannot see allocations proves nothing.
    let (_, n, _) = count(|| vec![1u8; 10]);
    assert_eq!(n, 1);
}

#[test]
fn encoding_into_a_slice_allocates_nothing() {
    let ev = Event {
        user_id: 7,
        event_type: "click".into(),
        ts: 1_700_000_000_000,
    };
    let hk = HostKey {
        host: "web-01",
        level: 3,
        path: b"/index",
        ts: 5,
        tag: Some("x"),
    };
    let mut buf = [0u8; 128];
    let (r, n, _) = count(|| {
        let a = ev.encode_to_slice(&mut buf).unwrap();
        let b = hk.encode_to_slice(&mut buf).unwrap();
        (a, b, ev.encoded_len(), ev.salt_bucket())
    });
    assert_eq!(r.0, 33);
    assert_eq!(n, 0, "encode_to_slice allocated");
}

#[test]
fn encoding_into_a_buffer_with_room_allocates_nothing() {
    let ev = Event {
        user_id: 7,
        event_type: "click".into(),
        ts: 1,
    };
    let mut out = bytes::BytesMut::with_capacity(256);
    let (_, n, _) = count(|| {
        for _ in 0..4 {
            ev.encode_into(&mut out).unwrap();
        }
    });
    assert_eq!(n, 0, "encode_into allocated");
    assert_eq!(out.len(), 4 * 33);
}

#[test]
fn decoding_borrowed_keys_allocates_nothing() {
    let ev = Event {
        user_id: 7,
        event_type: "click".into(),
        ts: 1,
    };
    let hk = HostKey {
        host: "web-01",
        level: 3,
        path: b"/index",
        ts: 5,
        tag: Some("x"),
    };
    let hk_bytes = hk.to_bytes().unwrap();
    let ev_bytes = ev.to_bytes().unwrap();
    let (r, n, _) = count(|| {
        let h = HostKey::decode(&hk_bytes).unwrap();
        let t = HostKey::decode_trusted(&hk_bytes).unwrap();
        // A failing decode must not allocate either.
        let e = HostKey::decode(&hk_bytes[..5]).is_err();
        (h == hk && t == hk, e)
    });
    assert_eq!(r, (true, true));
    assert_eq!(n, 0, "borrowed decode allocated");
    // Event owns a String, so decoding it allocates that string and nothing else.
    let (_, n, bytes) = count(|| Event::decode(&ev_bytes).unwrap());
    assert_eq!((n, bytes), (1, 5));
}

#[test]
fn to_bytes_allocates_once_with_the_exact_size() {
    let ev = Event {
        user_id: 7,
        event_type: "click".into(),
        ts: 1,
    };
    let hk = HostKey {
        host: "web-01",
        level: 3,
        path: b"/a\0b",
        ts: 5,
        tag: None,
    };
    let (b, n, size) = count(|| ev.to_bytes().unwrap());
    assert_eq!((n, size, b.len()), (1, 33, 33));
    let (b, n, size) = count(|| hk.to_bytes().unwrap());
    assert_eq!((n, size), (1, b.len()));
}

#[derive(RowKey)]
struct Unsalted {
    user_id: u64,
    #[fixed(16)]
    event_type: String,
    #[reverse_ts]
    ts: u64,
}

#[test]
fn ranges_over_short_keys_allocate_nothing() {
    let last = Unsalted {
        user_id: 7,
        event_type: "click".into(),
        ts: 15,
    }
    .to_bytes()
    .unwrap();
    let (r, n, _) = count(|| {
        let a = Unsalted::scan()
            .user_id(7)
            .event_type("click")
            .ts(10..20)
            .ranges();
        let b = Unsalted::scan().user_id(7).ranges();
        let c = Event::scan().user_id(7).event_type("click").ranges();
        let d = HostKey::scan().host("web-01").level(3).ranges();
        let e = a.after(&last);
        (a.len(), b.len(), c.len(), d.len(), e.len())
    });
    assert_eq!(r, (1, 1, 1, 1, 1));
    assert_eq!(n, 0, "single-range scans allocated");
}

#[test]
fn fanned_out_ranges_allocate_once() {
    let (r, n, _) = count(|| Event::scan().ranges().len());
    assert_eq!(r, 16);
    assert_eq!(n, 1, "one allocation for all 16 bucket ranges");
}

/// Keys Java code wrote (FORMAT.md §2.15-§2.17): numbers written as digits, modified UTF-8,
/// reversed text and the hex MD5 prefix all go straight into the buffer.
#[test]
fn legacy_layouts_encode_without_allocating() {
    #[derive(RowKey, Debug, PartialEq)]
    struct Flurry {
        #[java]
        user_id: u64,
        #[java(utf)]
        application_id: String,
    }
    #[derive(RowKey, Debug, PartialEq)]
    #[rowkey(delimiter = ':', hash_prefix(md5, of = message_id, upper))]
    struct Message {
        #[decimal(width = 6)]
        date: u32,
        #[hex(width = 8, upper)]
        time: u32,
        #[reverse]
        phone: String,
        #[decimal]
        message_id: i64,
    }
    let f = Flurry {
        user_id: 1,
        application_id: "a\0😀é".into(),
    };
    let m = Message {
        date: 230_611,
        time: 0xBEEF,
        phone: "1380013800é".into(),
        message_id: -1_231_231,
    };
    let mut buf = [0u8; 256];
    let ((a, b), n, _) = count(|| {
        let a = f.encode_to_slice(&mut buf).unwrap();
        let b = m.encode_to_slice(&mut buf).unwrap();
        (a, b)
    });
    assert_eq!(n, 0, "legacy encode_to_slice allocated");
    assert_eq!(a, 8 + 2 + 1 + 2 + 6 + 2);
    assert!(b > 33);
}
