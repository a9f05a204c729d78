//! Work cut into pieces, done on every core and taken in order.
//!
//! [`scan_in_order`] scans numbered pieces on the rayon pool and hands each result to one
//! consumer in piece order, as soon as the piece it waits for is ready, on whichever thread
//! finished that piece, while the other threads go on scanning: no thread waits for another's
//! piece. What waits for the consumer is bounded: pieces are scanned a bounded number ahead of
//! the one it takes next, and past a weight of results waiting, only when nothing else waits.
//! Nothing here knows what a piece is; the loader cuts files into pieces of lines.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard, PoisonError};

use rayon::ScopeFifo;

/// How far ahead of the consumer pieces may be scanned.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ahead {
    /// Pieces, per thread of the pool, from the one taken next on.
    pub per_thread: u64,
    /// The weight of results waiting: past it, a piece is scanned only when no other piece
    /// waits or is being scanned.
    pub weight: u64,
}

/// How a [`scan_in_order`] ended.
#[derive(Debug)]
pub(crate) struct Done<E> {
    /// Why the consumer stopped, if it did.
    pub stop: Option<E>,
    /// How many pieces it took.
    pub taken: u64,
    /// The most weight that waited at once (the pieces scanned and not yet taken, and the one
    /// being taken).
    pub most_held: u64,
}

/// Scans the pieces `0..count` with `scan` on the rayon pool and hands their results to `take`
/// in order; `scanned` are the results of the first pieces, scanned already. `weight` tells how
/// much of the bound a result holds. When `take` returns an error, no piece is scanned or taken
/// any more and the error is returned.
pub(crate) fn scan_in_order<T, E, S, W, C>(
    scanned: Vec<T>,
    count: u64,
    ahead: Ahead,
    scan: S,
    weight: W,
    mut take: C,
) -> Done<E>
where
    T: Send,
    E: Send,
    S: Fn(u64) -> T + Sync,
    W: Fn(&T) -> u64 + Sync,
    C: FnMut(T) -> Result<(), E> + Send,
{
    let held = scanned.iter().map(&weight).sum();
    let flow = Flow {
        next_scan: scanned.len() as u64,
        ready: scanned.into_iter().map(Some).collect(),
        held,
        most_held: held,
        next_take: 0,
        scanning: 0,
        taking: false,
        stop: None,
    };
    let run = Run {
        count,
        threads: (rayon::current_num_threads() as u64).max(1),
        ahead,
        scan: &scan,
        weight: &weight,
        flow: Mutex::new(flow),
        take: Mutex::new(&mut take),
    };
    rayon::scope_fifo(|s| {
        run.start_scans(s);
        run.take_ready(s);
    });
    let flow = run.flow.into_inner().unwrap_or_else(PoisonError::into_inner);
    Done { stop: flow.stop, taken: flow.next_take, most_held: flow.most_held }
}

/// Where the pieces are between the scanning threads and the consumer.
struct Flow<T, E> {
    /// The pieces from `next_take` on, scanned (`Some`) or not yet.
    ready: VecDeque<Option<T>>,
    /// Their weight, and that of the piece being taken.
    held: u64,
    /// The most `held` has been.
    most_held: u64,
    /// The piece taken next.
    next_take: u64,
    /// The first piece not yet handed to a scanning thread.
    next_scan: u64,
    /// Pieces handed to the pool and not yet in `ready`.
    scanning: u64,
    /// Whether a thread is taking pieces: the others leave theirs in `ready`.
    taking: bool,
    stop: Option<E>,
}

/// A [`scan_in_order`] going on.
struct Run<'f, T, E> {
    count: u64,
    threads: u64,
    ahead: Ahead,
    scan: &'f (dyn Fn(u64) -> T + Sync),
    weight: &'f (dyn Fn(&T) -> u64 + Sync),
    flow: Mutex<Flow<T, E>>,
    /// Held by the one thread that is taking (`Flow::taking`).
    take: Mutex<&'f mut (dyn FnMut(T) -> Result<(), E> + Send)>,
}

impl<T: Send, E: Send> Run<'_, T, E> {
    fn flow(&self) -> MutexGuard<'_, Flow<T, E>> {
        self.flow.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Hands the pool the pieces that may be scanned now, in order: a piece a thread at a
    /// time, up to [`Ahead::per_thread`] a thread from the one taken next, and past
    /// [`Ahead::weight`] waiting, one piece beyond the one being taken.
    fn start_scans<'s>(&'s self, s: &ScopeFifo<'s>) {
        let range = {
            let mut flow = self.flow();
            let first = flow.next_scan;
            while flow.stop.is_none()
                && flow.next_scan < self.count
                && flow.scanning < self.threads
                && flow.next_scan < flow.next_take + self.ahead.per_thread * self.threads
                && (flow.held < self.ahead.weight
                    || (flow.scanning == 0 && !flow.ready.iter().any(Option::is_some)))
            {
                flow.next_scan += 1;
                flow.scanning += 1;
            }
            first..flow.next_scan
        };
        for k in range {
            s.spawn_fifo(move |s| self.scan(s, k));
        }
    }

    /// Scans piece `k`, leaves it to be taken, and takes what is ready unless another thread
    /// is taking.
    fn scan<'s>(&'s self, s: &ScopeFifo<'s>, k: u64) {
        let stopped = self.flow().stop.is_some();
        let scanned = (!stopped).then(|| (self.scan)(k));
        {
            let mut flow = self.flow();
            flow.scanning -= 1;
            let Some(scanned) = scanned else { return };
            // Never below zero: a piece is taken only once scanned.
            let at = usize::try_from(k - flow.next_take).expect("pieces ahead fit in memory");
            if flow.ready.len() <= at {
                flow.ready.resize_with(at + 1, || None);
            }
            flow.held += (self.weight)(&scanned);
            flow.most_held = flow.most_held.max(flow.held);
            flow.ready[at] = Some(scanned);
        }
        self.take_ready(s);
        self.start_scans(s);
    }

    /// Takes the pieces that are ready, in order, unless another thread is taking them; starts
    /// the scans their room allows as it goes.
    fn take_ready<'s>(&'s self, s: &ScopeFifo<'s>) {
        let mut flow = self.flow();
        if flow.taking {
            // That thread looks at `ready` again before it stops.
            return;
        }
        flow.taking = true;
        while flow.stop.is_none()
            && let Some(Some(_)) = flow.ready.front()
        {
            let Some(Some(scanned)) = flow.ready.pop_front() else { unreachable!() };
            flow.next_take += 1;
            drop(flow);
            // The room it leaves is scanned into while it is taken.
            self.start_scans(s);
            let weight = (self.weight)(&scanned);
            let taken = {
                let mut take = self.take.lock().unwrap_or_else(PoisonError::into_inner);
                (*take)(scanned)
            };
            flow = self.flow();
            flow.held -= weight;
            if let Err(stop) = taken {
                flow.stop = Some(stop);
            }
            drop(flow);
            self.start_scans(s);
            flow = self.flow();
        }
        flow.taking = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every piece is taken once, in order, whatever the pool and the bounds.
    #[test]
    fn pieces_are_taken_in_order() {
        for threads in [1, 2, 4] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            for (per_thread, weight) in [(1, 1), (2, 3), (8, 1 << 16)] {
                let ahead = Ahead { per_thread, weight };
                let mut taken = Vec::new();
                let done = pool.install(|| {
                    scan_in_order(
                        vec![0, 1],
                        50,
                        ahead,
                        |k| k,
                        |_| 1,
                        |k| {
                            taken.push(k);
                            Ok::<(), ()>(())
                        },
                    )
                });
                assert_eq!(taken, (0..50).collect::<Vec<_>>());
                assert!(done.stop.is_none());
                assert_eq!(done.taken, 50);
            }
        }
    }

    /// What waits is bounded: with a weight of 1 and a piece ahead a thread, no more than the
    /// pieces the threads scan, the one taken and the one after wait at once.
    #[test]
    fn what_waits_is_bounded() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let ahead = Ahead { per_thread: 1, weight: 1 };
        let done = pool
            .install(|| scan_in_order(Vec::new(), 200, ahead, |k| k, |_| 1, |_| Ok::<(), ()>(())));
        assert_eq!(done.taken, 200);
        assert!(done.most_held <= 3, "{}", done.most_held);
    }

    /// A stop ends the work: no piece after it is taken, and the error comes back.
    #[test]
    fn a_stop_ends_the_taking() {
        let mut taken = Vec::new();
        let ahead = Ahead { per_thread: 4, weight: 100 };
        let done = scan_in_order(
            Vec::new(),
            100,
            ahead,
            |k| k,
            |_| 1,
            |k| {
                taken.push(k);
                if k == 10 { Err(k) } else { Ok(()) }
            },
        );
        assert_eq!(done.stop, Some(10));
        assert_eq!(done.taken, 11);
        assert_eq!(taken, (0..=10).collect::<Vec<_>>());
    }
}
