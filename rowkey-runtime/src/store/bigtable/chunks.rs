//! ReadRows chunk reassembly, exactly as the Bigtable protocol defines it.
//!
//! A ReadRows response stream carries rows as a sequence of cell chunks, split across response
//! messages at any point: a row's cells may span several messages, one cell's value may arrive
//! in several chunks (the first says the whole `value_size`, the last has `value_size` 0), a
//! `reset_row` discards the row in progress, and only `commit_row` makes a row final. Family
//! and qualifier carry over from the previous cell when absent. [`RowMerger`] takes chunks one
//! at a time, across messages, and yields committed rows; any sequence the protocol does not
//! allow is an error, never a guess.

use googleapis_tonic_google_bigtable_v2::google::bigtable::v2::read_rows_response::{
    cell_chunk::RowStatus, CellChunk,
};

/// One cell of a row read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Cell {
    pub(crate) family: String,
    pub(crate) qualifier: Vec<u8>,
    pub(crate) timestamp_micros: i64,
    pub(crate) value: Vec<u8>,
}

/// One committed row and its cells, in the order the server sent them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ReadRow {
    pub(crate) key: Vec<u8>,
    pub(crate) cells: Vec<Cell>,
}

/// The row being assembled.
struct Partial {
    key: Vec<u8>,
    cells: Vec<Cell>,
    family: String,
    qualifier: Vec<u8>,
    /// A cell whose value is still arriving in further chunks.
    open_cell: Option<Cell>,
}

/// Turns a stream of chunks into committed rows; see the module comment.
pub(crate) struct RowMerger {
    reversed: bool,
    last_key: Option<Vec<u8>>,
    row: Option<Partial>,
}

impl RowMerger {
    /// A merger for a forward (`reversed = false`) or reversed read.
    pub(crate) fn new(reversed: bool) -> Self {
        RowMerger {
            reversed,
            last_key: None,
            row: None,
        }
    }

    /// Takes one chunk; returns the row it commits, if any.
    pub(crate) fn push(&mut self, chunk: CellChunk) -> Result<Option<ReadRow>, String> {
        let reset = matches!(chunk.row_status, Some(RowStatus::ResetRow(true)));
        let commit = matches!(chunk.row_status, Some(RowStatus::CommitRow(true)));
        if reset {
            if self.row.is_none() {
                return Err("reset_row with no row in progress".into());
            }
            if !chunk.row_key.is_empty()
                || chunk.family_name.is_some()
                || chunk.qualifier.is_some()
                || chunk.timestamp_micros != 0
                || !chunk.labels.is_empty()
                || !chunk.value.is_empty()
                || chunk.value_size != 0
            {
                return Err("reset_row chunk carries cell data".into());
            }
            self.row = None;
            return Ok(None);
        }
        if chunk.value_size < 0 {
            return Err(format!("negative value_size {}", chunk.value_size));
        }
        match self.row.as_mut() {
            None => {
                if chunk.row_key.is_empty() {
                    return Err("new row without a row key".into());
                }
                if let Some(last) = &self.last_key {
                    let in_order = if self.reversed {
                        chunk.row_key < *last
                    } else {
                        chunk.row_key > *last
                    };
                    if !in_order {
                        return Err(format!(
                            "row key {} out of order after {}",
                            crate::fmt::binary(&chunk.row_key),
                            crate::fmt::binary(last)
                        ));
                    }
                }
                let (Some(family), Some(qualifier)) =
                    (chunk.family_name.clone(), chunk.qualifier.clone())
                else {
                    return Err("new row without a family and qualifier".into());
                };
                self.row = Some(Partial {
                    key: chunk.row_key.clone(),
                    cells: Vec::new(),
                    family,
                    qualifier,
                    open_cell: None,
                });
            }
            Some(row) => {
                if !chunk.row_key.is_empty() && chunk.row_key != row.key {
                    return Err(format!(
                        "row {} ended without commit_row before row {}",
                        crate::fmt::binary(&row.key),
                        crate::fmt::binary(&chunk.row_key)
                    ));
                }
                if row.open_cell.is_some() {
                    if chunk.family_name.is_some()
                        || chunk.qualifier.is_some()
                        || chunk.timestamp_micros != 0
                        || !chunk.labels.is_empty()
                    {
                        return Err("a split value's continuation carries cell coordinates".into());
                    }
                } else {
                    if let Some(family) = &chunk.family_name {
                        if chunk.qualifier.is_none() {
                            return Err("a new family without a qualifier".into());
                        }
                        row.family.clone_from(family);
                    }
                    if let Some(q) = &chunk.qualifier {
                        row.qualifier.clone_from(q);
                    }
                }
            }
        }
        let row = self.row.as_mut().ok_or("no row in progress")?;
        let cell = match row.open_cell.take() {
            Some(mut open) => {
                open.value.extend_from_slice(&chunk.value);
                open
            }
            None => {
                let mut value = chunk.value;
                if chunk.value_size > 0 {
                    value.reserve(
                        usize::try_from(chunk.value_size)
                            .unwrap_or(0)
                            .saturating_sub(value.len()),
                    );
                }
                Cell {
                    family: row.family.clone(),
                    qualifier: row.qualifier.clone(),
                    timestamp_micros: chunk.timestamp_micros,
                    value,
                }
            }
        };
        if chunk.value_size > 0 {
            if commit {
                return Err("commit_row inside a split value".into());
            }
            row.open_cell = Some(cell);
            return Ok(None);
        }
        row.cells.push(cell);
        if !commit {
            return Ok(None);
        }
        let done = self.row.take().ok_or("no row in progress")?;
        self.last_key = Some(done.key.clone());
        Ok(Some(ReadRow {
            key: done.key,
            cells: done.cells,
        }))
    }

    /// The stream ended: an uncommitted row is an error (the server cut the read short).
    pub(crate) fn finish(&self) -> Result<(), String> {
        match &self.row {
            None => Ok(()),
            Some(row) => Err(format!(
                "the stream ended inside row {}",
                crate::fmt::binary(&row.key)
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(key: &[u8], fam: Option<&str>, q: Option<&[u8]>, ts: i64, value: &[u8]) -> CellChunk {
        CellChunk {
            row_key: key.to_vec(),
            family_name: fam.map(str::to_string),
            qualifier: q.map(<[u8]>::to_vec),
            timestamp_micros: ts,
            labels: vec![],
            value: value.to_vec(),
            value_size: 0,
            row_status: None,
        }
    }

    fn commit(mut c: CellChunk) -> CellChunk {
        c.row_status = Some(RowStatus::CommitRow(true));
        c
    }

    fn split(mut c: CellChunk, size: i32) -> CellChunk {
        c.value_size = size;
        c
    }

    fn reset() -> CellChunk {
        CellChunk {
            row_status: Some(RowStatus::ResetRow(true)),
            ..chunk(b"", None, None, 0, b"")
        }
    }

    fn run(chunks: Vec<CellChunk>, reversed: bool) -> Result<Vec<ReadRow>, String> {
        let mut m = RowMerger::new(reversed);
        let mut rows = vec![];
        for c in chunks {
            rows.extend(m.push(c)?);
        }
        m.finish()?;
        Ok(rows)
    }

    fn cell(fam: &str, q: &[u8], ts: i64, v: &[u8]) -> Cell {
        Cell {
            family: fam.into(),
            qualifier: q.to_vec(),
            timestamp_micros: ts,
            value: v.to_vec(),
        }
    }

    #[test]
    fn a_split_value_is_reassembled() {
        let rows = run(
            vec![
                split(chunk(b"k", Some("d"), Some(b"v"), 10, b"hel"), 11),
                split(chunk(b"", None, None, 0, b"lo wo"), 11),
                commit(chunk(b"", None, None, 0, b"rld")),
            ],
            false,
        )
        .unwrap();
        assert_eq!(
            rows,
            [ReadRow {
                key: b"k".to_vec(),
                cells: vec![cell("d", b"v", 10, b"hello world")]
            }]
        );
    }

    #[test]
    fn several_cells_and_families_carry_coordinates_over() {
        let rows = run(
            vec![
                chunk(b"a", Some("d"), Some(b"x"), 2, b"1"),
                chunk(b"", None, None, 1, b"2"),
                chunk(b"", None, Some(b"y"), 1, b"3"),
                commit(chunk(b"", Some("e"), Some(b"z"), 1, b"4")),
                commit(chunk(b"b", Some("d"), Some(b"x"), 1, b"5")),
            ],
            false,
        )
        .unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(
            rows[0].cells,
            [
                cell("d", b"x", 2, b"1"),
                cell("d", b"x", 1, b"2"),
                cell("d", b"y", 1, b"3"),
                cell("e", b"z", 1, b"4"),
            ]
        );
        assert_eq!(rows[1].cells, [cell("d", b"x", 1, b"5")]);
    }

    #[test]
    fn reset_row_discards_the_row_in_progress_also_mid_value() {
        let rows = run(
            vec![
                chunk(b"a", Some("d"), Some(b"x"), 1, b"stale"),
                reset(),
                split(chunk(b"a", Some("d"), Some(b"x"), 1, b"fr"), 5),
                reset(),
                commit(chunk(b"a", Some("d"), Some(b"x"), 1, b"fresh")),
            ],
            false,
        )
        .unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].cells, [cell("d", b"x", 1, b"fresh")]);
    }

    #[test]
    fn protocol_violations_are_errors() {
        let bad: Vec<(&str, Vec<CellChunk>)> = vec![
            (
                "no key",
                vec![commit(chunk(b"", Some("d"), Some(b"x"), 1, b""))],
            ),
            (
                "no family",
                vec![commit(chunk(b"a", None, Some(b"x"), 1, b""))],
            ),
            (
                "no qualifier",
                vec![commit(chunk(b"a", Some("d"), None, 1, b""))],
            ),
            ("reset first", vec![reset()]),
            (
                "out of order",
                vec![
                    commit(chunk(b"b", Some("d"), Some(b"x"), 1, b"")),
                    commit(chunk(b"a", Some("d"), Some(b"x"), 1, b"")),
                ],
            ),
            (
                "repeated key",
                vec![
                    commit(chunk(b"a", Some("d"), Some(b"x"), 1, b"")),
                    commit(chunk(b"a", Some("d"), Some(b"x"), 1, b"")),
                ],
            ),
            (
                "new key before commit",
                vec![
                    chunk(b"a", Some("d"), Some(b"x"), 1, b""),
                    commit(chunk(b"b", Some("d"), Some(b"x"), 1, b"")),
                ],
            ),
            (
                "commit inside a split value",
                vec![commit(split(
                    chunk(b"a", Some("d"), Some(b"x"), 1, b"ab"),
                    4,
                ))],
            ),
            (
                "coordinates inside a split value",
                vec![
                    split(chunk(b"a", Some("d"), Some(b"x"), 1, b"ab"), 4),
                    commit(chunk(b"", None, Some(b"y"), 0, b"cd")),
                ],
            ),
            (
                "family without qualifier",
                vec![
                    chunk(b"a", Some("d"), Some(b"x"), 1, b""),
                    commit(chunk(b"", Some("e"), None, 1, b"")),
                ],
            ),
            (
                "ends uncommitted",
                vec![chunk(b"a", Some("d"), Some(b"x"), 1, b"")],
            ),
            (
                "ends mid value",
                vec![split(chunk(b"a", Some("d"), Some(b"x"), 1, b"a"), 2)],
            ),
        ];
        for (what, chunks) in bad {
            assert!(run(chunks, false).is_err(), "{what} was accepted");
        }
    }

    #[test]
    fn reversed_reads_expect_descending_keys() {
        let desc = vec![
            commit(chunk(b"b", Some("d"), Some(b"x"), 1, b"")),
            commit(chunk(b"a", Some("d"), Some(b"x"), 1, b"")),
        ];
        assert_eq!(run(desc.clone(), true).unwrap().len(), 2);
        assert!(run(desc, false).is_err());
    }
}
