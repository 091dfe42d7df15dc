//! The lookup table ([`UidTable`]): ids assigned, looked up both ways and refused where they
//! cannot be; concurrent assigners of overlapping names, each with its own client and cache,
//! agree on every id, and the table's two directions are one bijection.
//!
//! The store needs families [`UID_ID_FAMILY`] and [`UID_NAME_FAMILY`].

use std::collections::{BTreeMap, BTreeSet};

use rowkey::store::{AtomicStore, UidError, UidTable, UID_ID_FAMILY, UID_NAME_FAMILY};

/// The families a lookup table needs.
pub fn families() -> [&'static str; 2] {
    [UID_ID_FAMILY, UID_NAME_FAMILY]
}

/// Runs the lookup table's behaviours; `client` gives a new client of one fresh table each
/// call (one per assigner, as separate processes would have), `assigners` threads assign
/// `names` overlapping names.
pub fn exercise_uids<S, F>(client: F, assigners: usize, names: usize)
where
    F: Fn() -> S + Sync,
    S: AtomicStore + Send,
    S::Error: std::fmt::Debug,
{
    // ---- alone ----
    assert!(matches!(
        UidTable::new(client(), "host", 0),
        Err(UidError::InvalidName(_))
    ));
    let hosts = UidTable::new(client(), "host", 2).unwrap();
    assert!(matches!(
        hosts.get_or_assign(""),
        Err(UidError::InvalidName(_))
    ));
    assert!(matches!(
        hosts.get_or_assign("\0"),
        Err(UidError::InvalidName(_))
    ));
    assert_eq!(hosts.id("web-1").unwrap(), None);
    assert_eq!(hosts.get_or_assign("web-1").unwrap(), 1, "ids start at 1");
    assert_eq!(hosts.get_or_assign("web-1").unwrap(), 1);
    assert_eq!(hosts.id("web-1").unwrap(), Some(1));
    assert_eq!(hosts.name(1).unwrap().as_deref(), Some("web-1"));
    assert_eq!(hosts.name(2).unwrap(), None);
    assert_eq!(hosts.id_bytes(1), [0, 1]);
    // Another client, another cache: the same id, from the table.
    let other = UidTable::new(client(), "host", 2).unwrap();
    assert_eq!(other.id("web-1").unwrap(), Some(1));
    assert_eq!(other.name(1).unwrap().as_deref(), Some("web-1"));
    // Another kind in the same table counts on its own.
    let events = UidTable::new(client(), "event", 2).unwrap();
    assert_eq!(events.get_or_assign("web-1").unwrap(), 1);
    assert_eq!(events.get_or_assign("login").unwrap(), 2);
    assert_eq!(hosts.name(2).unwrap(), None);

    // ---- concurrent assigners, overlapping names ----
    let all: Vec<String> = (0..names).map(|i| format!("host-{i:04}")).collect();
    let seen: Vec<Vec<(String, u64)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..assigners)
            .map(|t| {
                let (all, client) = (&all, &client);
                scope.spawn(move || {
                    let table = UidTable::new(client(), "host", 2).unwrap();
                    // Each starts at another place, half going backwards: every name is
                    // raced for by several assigners at different moments.
                    let start = t * names / assigners;
                    (0..names)
                        .map(|i| {
                            let j = if t % 2 == 0 {
                                (start + i) % names
                            } else {
                                (start + names - i) % names
                            };
                            let name = &all[j];
                            (name.clone(), table.get_or_assign(name).unwrap())
                        })
                        .collect()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut agreed: BTreeMap<String, u64> = BTreeMap::new();
    for (t, pairs) in seen.iter().enumerate() {
        assert_eq!(pairs.len(), names);
        for (name, id) in pairs {
            let first = *agreed.entry(name.clone()).or_insert(*id);
            assert_eq!(first, *id, "assigner {t} got another id for `{name}`");
        }
    }
    assert_eq!(agreed.len(), names);
    let ids: BTreeSet<u64> = agreed.values().copied().collect();
    assert_eq!(ids.len(), names, "no two names share an id");
    assert!(!ids.contains(&1), "web-1 keeps id 1");
    // Both directions, read back from the table: one bijection.
    let report = hosts.verify(false).unwrap();
    assert_eq!(report.names, names + 1);
    assert_eq!(report.ids, names + 1);
    assert!(report.missing_reverse.is_empty(), "{report:?}");
    assert!(report.conflicts.is_empty(), "{report:?}");
    assert!(report.counter >= (names + 1) as u64);
    for (name, id) in &agreed {
        assert_eq!(hosts.name(*id).unwrap().as_deref(), Some(name.as_str()));
    }

    // ---- the width's limit ----
    let tiny = UidTable::new(client(), "tiny", 1).unwrap();
    for i in 0..255 {
        assert_eq!(tiny.get_or_assign(&format!("n{i}")).unwrap(), i + 1);
    }
    let err = tiny.get_or_assign("one too many").unwrap_err();
    assert!(
        matches!(err, UidError::Exhausted { width: 1, .. }),
        "{err:?}"
    );
    assert_eq!(tiny.id("one too many").unwrap(), None, "nothing claimed");
    assert_eq!(
        tiny.get_or_assign("n0").unwrap(),
        1,
        "assigned names still resolve"
    );
    // One assigner alone: every reverse row is the winner's own write, none a repair's.
    let report = tiny.verify(false).unwrap();
    assert_eq!(
        (report.names, report.ids, report.counter),
        (255, 255, 256),
        "{report:?}"
    );
}

/// [`exercise_uids`] through [`AsyncUidTable`](rowkey::store::AsyncUidTable): the same
/// behaviours alone, then `assigners` tables (each its own `client()` and cache) assigning
/// `names` overlapping names concurrently (their futures joined on one task, so they
/// interleave at every store call), then the width's limit.
#[cfg(feature = "async")]
pub async fn exercise_uids_async<S, F>(client: F, assigners: usize, names: usize)
where
    F: Fn() -> S,
    S: rowkey::store::AsyncAtomicStore,
    S::Error: std::fmt::Debug,
{
    use rowkey::store::AsyncUidTable;

    // ---- alone ----
    assert!(matches!(
        AsyncUidTable::new(client(), "host", 9),
        Err(UidError::InvalidName(_))
    ));
    let hosts = AsyncUidTable::new(client(), "host", 2).unwrap();
    assert!(matches!(
        hosts.get_or_assign("\0").await,
        Err(UidError::InvalidName(_))
    ));
    assert_eq!(hosts.id("web-1").await.unwrap(), None);
    assert_eq!(
        hosts.get_or_assign("web-1").await.unwrap(),
        1,
        "ids start at 1"
    );
    assert_eq!(hosts.get_or_assign("web-1").await.unwrap(), 1);
    assert_eq!(hosts.name(1).await.unwrap().as_deref(), Some("web-1"));
    assert_eq!(hosts.name(2).await.unwrap(), None);
    let other = AsyncUidTable::new(client(), "host", 2).unwrap();
    assert_eq!(other.id("web-1").await.unwrap(), Some(1), "from the table");
    let events = AsyncUidTable::new(client(), "event", 2).unwrap();
    assert_eq!(
        events.get_or_assign("login").await.unwrap(),
        1,
        "a kind counts alone"
    );

    // ---- concurrent assigners, overlapping names ----
    let all: Vec<String> = (0..names).map(|i| format!("host-{i:04}")).collect();
    let tables: Vec<AsyncUidTable<S>> = (0..assigners)
        .map(|_| AsyncUidTable::new(client(), "host", 2).unwrap())
        .collect();
    let seen: Vec<Vec<(String, u64)>> =
        futures_util::future::join_all(tables.iter().enumerate().map(|(t, table)| {
            let all = &all;
            async move {
                let start = t * names / assigners;
                let mut out = Vec::with_capacity(names);
                for i in 0..names {
                    let j = if t % 2 == 0 {
                        (start + i) % names
                    } else {
                        (start + names - i) % names
                    };
                    out.push((all[j].clone(), table.get_or_assign(&all[j]).await.unwrap()));
                }
                out
            }
        }))
        .await;
    let mut agreed: BTreeMap<String, u64> = BTreeMap::new();
    for (t, pairs) in seen.iter().enumerate() {
        assert_eq!(pairs.len(), names);
        for (name, id) in pairs {
            let first = *agreed.entry(name.clone()).or_insert(*id);
            assert_eq!(first, *id, "assigner {t} got another id for `{name}`");
        }
    }
    let ids: BTreeSet<u64> = agreed.values().copied().collect();
    assert_eq!(ids.len(), names, "no two names share an id");
    let report = hosts.verify(false).await.unwrap();
    assert_eq!((report.names, report.ids), (names + 1, names + 1));
    assert!(report.missing_reverse.is_empty(), "{report:?}");
    assert!(report.conflicts.is_empty(), "{report:?}");
    for (name, id) in &agreed {
        assert_eq!(
            hosts.name(*id).await.unwrap().as_deref(),
            Some(name.as_str())
        );
    }

    // ---- the width's limit ----
    let tiny = AsyncUidTable::new(client(), "tiny", 1).unwrap();
    for i in 0..255 {
        assert_eq!(tiny.get_or_assign(&format!("n{i}")).await.unwrap(), i + 1);
    }
    let err = tiny.get_or_assign("one too many").await.unwrap_err();
    assert!(
        matches!(err, UidError::Exhausted { width: 1, .. }),
        "{err:?}"
    );
    assert_eq!(
        tiny.id("one too many").await.unwrap(),
        None,
        "nothing claimed"
    );
    // One assigner alone: every reverse row is the winner's own write, none a repair's.
    let report = tiny.verify(false).await.unwrap();
    assert_eq!(
        (report.names, report.ids, report.counter),
        (255, 255, 256),
        "{report:?}"
    );
}
