//! The history graph's layout: lanes per line of history, forks opening
//! the leftmost free lane, lanes freed and reused, a branch that goes on
//! from its parent's tip staying in the lane, merges closing a line, and
//! every row drawable (no two lines in one lane).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::graph::{layout, nodes, Layout, Node};
use braid_core::Conversation;
use braid_protocol::{BranchId, Message, MessageId, MessageType, Role, Timestamp};

fn n(id: u64, parents: &[u64], color: u32) -> Node {
    Node { id: MessageId(id), parents: parents.iter().map(|&p| MessageId(p)).collect(), color }
}

fn lanes(l: &Layout) -> Vec<u32> {
    l.rows.iter().map(|r| r.lane).collect()
}

fn set(v: impl IntoIterator<Item = u32>) -> Vec<u32> {
    let mut v: Vec<u32> = v.into_iter().collect();
    v.sort_unstable();
    v
}

/// Every row can be drawn: the node, the lines passing, ending and
/// starting at it are in distinct lanes inside the width; and every line
/// going down from a row comes into the next one, and nothing else does.
fn drawable(l: &Layout) {
    let mut above: Vec<u32> = Vec::new();
    for r in &l.rows {
        let at: Vec<u32> = [r.lane]
            .into_iter()
            .chain(r.through.iter().map(|t| t.0))
            .chain(r.merges.iter().map(|t| t.0))
            .chain(r.forks.iter().map(|t| t.0))
            .collect();
        assert_eq!(set(at.clone()).len(), at.len(), "two lines share a lane in {r:?}");
        assert!(at.iter().all(|&x| x < l.width), "{r:?} is outside the width {}", l.width);
        let from_above = set(r
            .up
            .then_some(r.lane)
            .into_iter()
            .chain(r.merges.iter().map(|t| t.0))
            .chain(r.through.iter().map(|t| t.0)));
        assert_eq!(from_above, above, "what comes into {r:?} is not what left the row above");
        above = set(r
            .down
            .then_some(r.lane)
            .into_iter()
            .chain(r.forks.iter().map(|t| t.0))
            .chain(r.through.iter().map(|t| t.0)));
    }
    assert!(above.is_empty(), "lines run off the bottom: {above:?}");
}

#[test]
fn one_branch_is_one_straight_lane() {
    let l = layout(&[n(1, &[], 0), n(2, &[1], 0), n(3, &[2], 0)]);
    assert_eq!((lanes(&l), l.width), (vec![0, 0, 0], 1));
    assert!(l.rows.iter().all(|r| r.through.is_empty() && r.forks.is_empty()));
    assert_eq!((l.rows[0].up, l.rows[0].down, l.rows[2].down), (false, true, false));
    drawable(&l);
}

#[test]
fn a_fork_opens_a_lane_at_its_fork_point_and_the_parent_line_goes_on_beside_it() {
    // main: 1 2 3 5; b2 forked after 2: 4 6.
    let l = layout(&[n(1, &[], 0), n(2, &[1], 0), n(3, &[2], 0), n(4, &[2], 1), n(5, &[3], 0), n(6, &[4], 1)]);
    assert_eq!(lanes(&l), [0, 0, 0, 1, 0, 1]);
    assert_eq!(l.rows[1].forks, [(1, 1)], "the fork leaves 2 in b2's colour");
    assert_eq!(l.rows[2].through, [(1, 1)], "b2's line passes 3");
    assert_eq!(l.rows[3].through, [(0, 0)], "main goes on beside the fork");
    assert_eq!(l.width, 2);
    drawable(&l);
}

#[test]
fn a_branch_written_first_does_not_take_its_parents_lane() {
    // b2 forks after 2 and is written to before main goes on with 5.
    let l = layout(&[n(1, &[], 0), n(2, &[1], 0), n(3, &[2], 1), n(4, &[3], 1), n(5, &[2], 0)]);
    assert_eq!(lanes(&l), [0, 0, 1, 1, 0], "main keeps lane 0");
    assert_eq!(l.rows[2].through, [(0, 0)], "lane 0 waits for main to go on");
    drawable(&l);
}

#[test]
fn a_branch_from_the_tip_goes_straight_on_and_freed_lanes_are_reused() {
    // main ends at 2; b2 goes on from it in the same lane; b3 and b4 fork
    // from 1 into lanes of their own.
    let l = layout(&[n(1, &[], 0), n(2, &[1], 0), n(3, &[2], 1), n(4, &[1], 2), n(5, &[1], 3), n(6, &[3], 1)]);
    assert_eq!(lanes(&l), [0, 0, 0, 1, 2, 0]);
    assert_eq!(l.rows[0].forks, [(1, 2), (2, 3)]);
    drawable(&l);
    // 2 ends at once; 5 forks from 4 later (main goes on with 6) and
    // reuses lane 1.
    let reuse = layout(&[n(1, &[], 0), n(2, &[1], 1), n(3, &[1], 0), n(4, &[3], 0), n(5, &[4], 2), n(6, &[4], 0)]);
    assert_eq!(lanes(&reuse), [0, 1, 0, 0, 1, 0]);
    assert_eq!(reuse.width, 2);
    drawable(&reuse);
}

#[test]
fn a_merge_closes_the_line_it_takes_in() {
    // b2 (4, 5) forked after 2 and merged into main at 6.
    let l = layout(&[
        n(1, &[], 0),
        n(2, &[1], 0),
        n(3, &[2], 0),
        n(4, &[2], 1),
        n(5, &[4], 1),
        n(6, &[3, 5], 0),
        n(7, &[6], 0),
    ]);
    assert_eq!(lanes(&l), [0, 0, 0, 1, 1, 0, 0]);
    assert_eq!(l.rows[5].merges, [(1, 1)], "b2's line ends in the merge");
    assert!(l.rows[6].through.is_empty(), "nothing is left beside main");
    assert_eq!(l.width, 2);
    drawable(&l);
}

#[test]
fn nodes_come_from_the_branches_shared_messages_once() {
    let now = Timestamp(0);
    let mut c = Conversation::new(now);
    let text = |id: u64| Message::new(MessageId(id), now, MessageType::text(Role::User, "x"));
    for id in 1..=3 {
        c.append(text(id)).unwrap();
    }
    let mut b = c.fork(&BranchId::main(), MessageId(2), "idea", None, Timestamp(1)).unwrap();
    b.id = BranchId("b2".into());
    c.add_branch(b).unwrap();
    c.set_active(&BranchId("b2".into())).unwrap();
    c.append(text(4)).unwrap();
    let ns = nodes(&c);
    assert_eq!(ns.iter().map(|n| n.id.0).collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert_eq!(ns[3].parents, [MessageId(2)], "4 follows the fork point");
    assert_eq!(ns.iter().map(|n| n.color).collect::<Vec<_>>(), [0, 0, 0, 1]);
    let l = layout(&ns);
    assert_eq!(lanes(&l), [0, 0, 0, 1]);
    drawable(&l);
}

#[test]
fn random_histories_are_always_drawable() {
    // A deterministic generator: forks from random earlier messages, each
    // branch writing a few messages in turn.
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    };
    for _ in 0..200 {
        let mut ns: Vec<Node> = vec![n(1, &[], 0)];
        let mut tips: Vec<(u64, u32)> = vec![(1, 0)];
        for id in 2..80u64 {
            if next(5) == 0 {
                let from = ns[next(ns.len() as u64) as usize].id.0;
                let color = tips.len() as u32;
                ns.push(n(id, &[from], color));
                tips.push((id, color));
            } else {
                let t = next(tips.len() as u64) as usize;
                let (tip, color) = tips[t];
                ns.push(n(id, &[tip], color));
                tips[t] = (id, color);
            }
        }
        drawable(&layout(&ns));
    }
}

#[test]
fn spans_join_passing_lines_into_runs_that_cover_exactly_the_rows() {
    // main: 1 2 3 5 7; b2 after 2: 4 6 8 — b2's lane passes main's rows.
    let l = layout(&[
        n(1, &[], 0),
        n(2, &[1], 0),
        n(3, &[2], 0),
        n(4, &[2], 1),
        n(5, &[3], 0),
        n(6, &[4], 1),
        n(7, &[5], 0),
        n(8, &[6], 1),
    ]);
    let spans = braid_core::graph::spans(&l.rows);
    let mut from_spans: Vec<(u32, u32, u32)> =
        spans.iter().flat_map(|s| (s[1]..=s[2]).map(move |row| (row, s[0], s[3]))).collect();
    let mut from_rows: Vec<(u32, u32, u32)> = l
        .rows
        .iter()
        .enumerate()
        .flat_map(|(i, r)| {
            let own = (r.up && r.down).then_some((r.lane, r.color));
            r.through.iter().copied().chain(own).map(move |(lane, c)| (i as u32, lane, c))
        })
        .collect();
    from_spans.sort_unstable();
    from_rows.sort_unstable();
    assert_eq!(from_spans, from_rows);
    assert!(spans.len() < from_rows.len(), "runs are fewer than rows: {spans:?}");
}
