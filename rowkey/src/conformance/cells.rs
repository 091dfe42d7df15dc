//! Rows of cells, stated once and run on every store (memory and fjall in `tests/cells.rs`,
//! the Bigtable emulator in `tests/bigtable.rs`, HBase in `tests/hbase.rs`): typed rows put,
//! read whole and as a projection, `None` fields cleared, deleted, scanned merged across salt
//! buckets forward and reverse; and the store-level cell API with every column selection.

#![allow(dead_code)] // each test binary uses part of it

use rowkey::store::{Cell, CellTable, Column, Columns, RowWrite, Store};
use rowkey::{KeyRange, RowKey, RowValue};

use super::Reading;

/// A row of two families, with every kind of value.
#[derive(RowValue, Debug, Clone, PartialEq)]
#[column(family = "d")]
pub struct Visit {
    #[column(name = "via")]
    pub referrer: String,
    #[column(name = "ms")]
    pub duration_ms: u32,
    #[column(name = "n")]
    pub count: i64,
    #[column(name = "b")]
    pub blob: Vec<u8>,
    #[column(name = "f")]
    pub score: f64,
    #[column(family = "m", name = "ok")]
    pub ok: bool,
    #[column(family = "m", name = "ua")]
    pub agent: Option<String>,
}

/// A projection of [`Visit`]: two of its columns, read without the others.
#[derive(RowValue, Debug, Clone, PartialEq)]
#[column(family = "d")]
pub struct VisitSummary {
    #[column(name = "via")]
    pub referrer: String,
    #[column(family = "m", name = "ua")]
    pub agent: Option<String>,
}

/// The families a table of [`Visit`] needs.
pub fn families() -> Vec<&'static str> {
    Visit::SCHEMA.families()
}

/// A row of [`Visit`] for reading `r`.
pub fn visit(r: &Reading) -> Visit {
    Visit {
        referrer: format!("ref-{}", r.sensor % 3),
        duration_ms: u32::try_from(r.ts % 1000).unwrap(),
        count: -(r.ts as i64),
        blob: vec![0, 1, 0, r.sensor as u8],
        score: r.ts as f64 / 7.0,
        ok: r.sensor.is_multiple_of(2),
        agent: (!r.sensor.is_multiple_of(4)).then(|| format!("agent/{}", r.sensor)),
    }
}

/// Runs the typed-row behaviours against `store`, which must start empty and have the
/// families of [`Visit`].
pub fn exercise_cells<S: Store>(store: S) {
    let table: CellTable<S, Reading, Visit> = CellTable::new(store);
    let keys = super::readings();
    let values: Vec<Visit> = keys.iter().map(visit).collect();
    table.put_batch(keys.iter().zip(&values)).unwrap();

    // Whole rows and projections.
    for (k, v) in keys.iter().zip(&values).step_by(7) {
        assert_eq!(table.get(k).unwrap().as_ref(), Some(v));
        let summary: VisitSummary = table.get_as(k).unwrap().unwrap();
        assert_eq!(
            summary,
            VisitSummary {
                referrer: v.referrer.clone(),
                agent: v.agent.clone()
            }
        );
    }

    // A `None` field clears its column; other columns stay.
    let k = &keys[5];
    let mut v = values[5].clone();
    v.agent = Some("set".into());
    table.put(k, &v).unwrap();
    assert_eq!(table.get(k).unwrap().unwrap().agent.as_deref(), Some("set"));
    v.agent = None;
    v.count = i64::MIN;
    table.put(k, &v).unwrap();
    assert_eq!(table.get(k).unwrap().as_ref(), Some(&v));
    let raw = table
        .store()
        .read_row(&k.to_bytes().unwrap(), &Columns::all())
        .unwrap()
        .unwrap();
    assert!(raw.value("m", b"ua").is_none(), "the cleared cell is gone");
    assert_eq!(raw.cells.len(), 6);
    let mut values = values;
    values[5] = v;

    // Delete removes every cell of the row.
    table.delete(&keys[9]).unwrap();
    assert_eq!(table.get(&keys[9]).unwrap(), None);
    let mut live: Vec<(Reading, Visit)> = keys
        .iter()
        .cloned()
        .zip(values.iter().cloned())
        .enumerate()
        .filter(|(i, _)| *i != 9)
        .map(|(_, kv)| kv)
        .collect();

    // The merged scan: logical order across the 8 buckets, values intact.
    live.sort_by(|(a, _), (b, _)| {
        a.sensor
            .cmp(&b.sensor)
            .then(b.ts.cmp(&a.ts))
            .then(a.kind.cmp(&b.kind))
    });
    let all: Vec<(Reading, Visit)> = table
        .scan(&Reading::scan().ranges())
        .map(Result::unwrap)
        .collect();
    assert_eq!(all, live, "merged scan of typed rows in logical key order");
    let some: Vec<(Reading, VisitSummary)> = table
        .scan_as(&Reading::scan().sensor(3..7).ranges())
        .map(Result::unwrap)
        .collect();
    let want: Vec<(Reading, VisitSummary)> = live
        .iter()
        .filter(|(k, _)| (3..7).contains(&k.sensor))
        .map(|(k, v)| {
            let s = VisitSummary {
                referrer: v.referrer.clone(),
                agent: v.agent.clone(),
            };
            (k.clone(), s)
        })
        .collect();
    assert_eq!(some, want);
    if let Some(rev) = table.scan_rev(&Reading::scan().ranges()) {
        let back: Vec<(Reading, Visit)> = rev.map(Result::unwrap).collect();
        let mut want = live.clone();
        want.reverse();
        assert_eq!(back, want, "merged reverse scan of typed rows");
    }

    // A stored value of the wrong width is an error naming its column, not a panic.
    let bad = keys[11].to_bytes().unwrap().to_vec();
    table
        .store()
        .write_rows(&[RowWrite::new(bad, vec![Cell::new("d", "ms", vec![1u8])])])
        .unwrap();
    let err = table.get(&keys[11]).unwrap_err().to_string();
    assert!(err.contains("d:ms") && err.contains("1 byte"), "{err}");

    exercise_columns(table.store());
    batch_order(&table);
}

/// A batch that writes one row more than once keeps the later write, on every store: a set
/// after a clear sets, a clear after a set clears, the second of two sets stays; and the same
/// at the store level, for row writes and for raw rows.
pub fn batch_order<S: Store>(table: &CellTable<S, Reading, Visit>) {
    let keys: Vec<Reading> = (0..4)
        .map(|i| Reading {
            sensor: 900 + i,
            ts: 1,
            kind: "dup".into(),
        })
        .collect();
    let base = visit(&keys[0]);
    let with = |agent: Option<&str>, count: i64| Visit {
        agent: agent.map(str::to_owned),
        count,
        ..base.clone()
    };
    let (cleared_then_set, set_then_cleared, set_twice) = (
        with(Some("later"), 4),
        with(None, 2),
        with(Some("second"), 3),
    );
    let batch = [
        (&keys[0], with(None, 1)),
        (&keys[1], with(Some("first"), 1)),
        (&keys[2], with(Some("first"), 1)),
        (&keys[0], cleared_then_set.clone()),
        (&keys[1], set_then_cleared.clone()),
        (&keys[2], set_twice.clone()),
    ];
    table.put_batch(batch.iter().map(|(k, v)| (*k, v))).unwrap();
    assert_eq!(
        table.get(&keys[0]).unwrap(),
        Some(cleared_then_set),
        "set after clear"
    );
    assert_eq!(
        table.get(&keys[1]).unwrap(),
        Some(set_then_cleared),
        "clear after set"
    );
    assert_eq!(
        table.get(&keys[2]).unwrap(),
        Some(set_twice),
        "second of two sets"
    );

    // Store level: two writes of one row, the second clearing what the first set; and one
    // write that sets a column twice.
    let row = keys[3].to_bytes().unwrap().to_vec();
    let store = table.store();
    store
        .write_rows(&[
            RowWrite::new(
                row.clone(),
                vec![
                    Cell::new("d", "x", b"1".to_vec()),
                    Cell::new("d", "y", b"1".to_vec()),
                ],
            ),
            RowWrite {
                key: row.clone(),
                set: vec![
                    Cell::new("d", "y", b"2".to_vec()),
                    Cell::new("d", "y", b"3".to_vec()),
                ],
                clear: vec![Column::new("d", "x")],
            },
        ])
        .unwrap();
    let got = store
        .read_row(&row, &Columns::families(["d"]))
        .unwrap()
        .unwrap();
    assert_eq!(
        got.cells,
        vec![Cell::new("d", "y", b"3".to_vec())],
        "row writes in order"
    );
}

/// The store-level cell API: rows that hold a time range in their qualifiers (the guide's
/// rows as columns), read by every kind of column selection, whole rows and ranges.
pub fn exercise_columns<S: Store>(store: &S) {
    let row = |i: u8| vec![b'r', b'c', i];
    let writes: Vec<RowWrite> = (0..6u8)
        .map(|i| {
            let mut cells: Vec<Cell> = (0..20u16)
                .map(|q| Cell::new("d", q.to_be_bytes().to_vec(), vec![i, q as u8]))
                .collect();
            if i.is_multiple_of(2) {
                cells.push(Cell::new("m", "tag", format!("t{i}")));
            }
            RowWrite::new(row(i), cells)
        })
        .collect();
    store.write_rows(&writes).unwrap();

    let key = row(2);
    let all = store.read_row(&key, &Columns::all()).unwrap().unwrap();
    assert_eq!(all.cells.len(), 21);
    // Sorted by family, then qualifier.
    let coords: Vec<(String, Vec<u8>)> = all
        .cells
        .iter()
        .map(|c| (c.family.to_string(), c.qualifier.clone()))
        .collect();
    let mut sorted = coords.clone();
    sorted.sort();
    assert_eq!(coords, sorted);

    let range =
        Columns::qualifier_range("d", 5u16.to_be_bytes(), Some(9u16.to_be_bytes().to_vec()));
    let got = store.read_row(&key, &range).unwrap().unwrap();
    let qs: Vec<u16> = got
        .cells
        .iter()
        .map(|c| u16::from_be_bytes(c.qualifier[..].try_into().unwrap()))
        .collect();
    assert_eq!(qs, [5, 6, 7, 8]);
    let open = Columns::qualifier_range("d", 18u16.to_be_bytes(), None);
    assert_eq!(store.read_row(&key, &open).unwrap().unwrap().cells.len(), 2);
    let exact = Columns::exact([
        Column::new("d", 3u16.to_be_bytes()),
        Column::new("m", "tag"),
        Column::new("m", "nope"),
    ]);
    let got = store.read_row(&key, &exact).unwrap().unwrap();
    assert_eq!(got.value("d", &3u16.to_be_bytes()), Some(&[2u8, 3][..]));
    assert_eq!(got.value("m", b"tag"), Some(&b"t2"[..]));
    assert_eq!(got.cells.len(), 2);
    assert_eq!(
        store.read_row(&row(3), &Columns::families(["m"])).unwrap(),
        None
    );
    assert_eq!(store.read_row(&row(9), &Columns::all()).unwrap(), None);

    // Scans: rows without a selected cell are left out; reverse where the store has it.
    let rows = KeyRange::new(&row(0), Some(&row(6)));
    let tagged: Vec<Vec<u8>> = store
        .scan_rows(&rows, &Columns::families(["m"]))
        .map(|r| r.unwrap().key)
        .collect();
    assert_eq!(tagged, [row(0), row(2), row(4)]);
    let window: Vec<(Vec<u8>, usize)> = store
        .scan_rows(&KeyRange::new(&row(1), Some(&row(4))), &range)
        .map(|r| {
            let r = r.unwrap();
            (r.key, r.cells.len())
        })
        .collect();
    assert_eq!(window, [(row(1), 4), (row(2), 4), (row(3), 4)]);
    if let Some(rev) = store.scan_rows_rev(&rows, &Columns::all()) {
        let back: Vec<(Vec<u8>, usize)> = rev
            .map(|r| {
                let r = r.unwrap();
                let sorted = r
                    .cells
                    .windows(2)
                    .all(|w| (&w[0].family, &w[0].qualifier) < (&w[1].family, &w[1].qualifier));
                assert!(sorted, "a reverse scan's rows keep their cells in order");
                (r.key, r.cells.len())
            })
            .collect();
        let want: Vec<(Vec<u8>, usize)> = (0..6u8)
            .rev()
            .map(|i| (row(i), if i.is_multiple_of(2) { 21 } else { 20 }))
            .collect();
        assert_eq!(back, want);
    }

    // Clearing cells and deleting rows.
    let mut clear = RowWrite::new(row(0), vec![]);
    clear.clear = (0..10u16)
        .map(|q| Column::new("d", q.to_be_bytes()))
        .collect();
    store.write_rows(&[clear]).unwrap();
    assert_eq!(
        store
            .read_row(&row(0), &Columns::all())
            .unwrap()
            .unwrap()
            .cells
            .len(),
        11
    );
    store.delete_row(&row(1)).unwrap();
    assert_eq!(store.read_row(&row(1), &Columns::all()).unwrap(), None);
    let left: Vec<Vec<u8>> = store
        .scan_rows(&rows, &Columns::all())
        .map(|r| r.unwrap().key)
        .collect();
    assert_eq!(left, [row(0), row(2), row(3), row(4), row(5)]);
}

/// The typed-row behaviours through [`AsyncCellTable`](rowkey::store::AsyncCellTable): the
/// same answers as the blocking table, from a tokio task.
#[cfg(feature = "async")]
pub async fn exercise_cells_async<S: rowkey::store::AsyncStore>(store: S) {
    use futures_util::StreamExt;
    use rowkey::store::AsyncCellTable;

    let table: AsyncCellTable<S, Reading, Visit> = AsyncCellTable::new(store);
    let keys = super::readings();
    let values: Vec<Visit> = keys.iter().map(visit).collect();
    table.put_batch(keys.iter().zip(&values)).await.unwrap();
    for (k, v) in keys.iter().zip(&values).step_by(9) {
        assert_eq!(table.get(k).await.unwrap().as_ref(), Some(v));
        let s: VisitSummary = table.get_as(k).await.unwrap().unwrap();
        assert_eq!(s.referrer, v.referrer);
    }
    let mut v = values[3].clone();
    v.agent = None;
    table.put(&keys[3], &v).await.unwrap();
    assert_eq!(table.get(&keys[3]).await.unwrap(), Some(v.clone()));
    table.delete(&keys[4]).await.unwrap();
    assert_eq!(table.get(&keys[4]).await.unwrap(), None);

    let mut want: Vec<(Reading, Visit)> = keys
        .iter()
        .cloned()
        .zip(values.iter().cloned())
        .enumerate()
        .filter(|(i, _)| *i != 4)
        .map(|(i, kv)| if i == 3 { (kv.0, v.clone()) } else { kv })
        .collect();
    want.sort_by(|(a, _), (b, _)| {
        a.sensor
            .cmp(&b.sensor)
            .then(b.ts.cmp(&a.ts))
            .then(a.kind.cmp(&b.kind))
    });
    let got: Vec<(Reading, Visit)> = table
        .scan(&Reading::scan().ranges())
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(got, want, "async merged scan of typed rows");
    if let Some(rev) = table.scan_rev(&Reading::scan().ranges()) {
        let mut back: Vec<(Reading, Visit)> = rev.map(Result::unwrap).collect().await;
        back.reverse();
        assert_eq!(back, want, "async merged reverse scan");
    }
}
