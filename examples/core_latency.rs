//! How long one cache line takes to travel between two cores: `cargo run --release --example
//! core_latency -- [round trips]` (default 2,000,000).
//!
//! Two threads pass a counter back and forth through one atomic, each spinning on plain loads (no
//! pause hint, which would add its own delay to every hand-over) until the other's increment, and
//! the time per round trip is printed with half of it, about one transfer of the line (the loop's
//! own work is in it too, so compare the figures with each other rather than with a processor's
//! data sheet). Run it just before and just after a `tengen bench --threads 1,2` measurement: a
//! shared-tree search's two-thread rate depends on it (docs/performance.md, "Threads"), and on a
//! virtual machine it can change from one minute to the next while one thread's rate does not. It
//! needs two idle cores: with one, each hand-over waits for the scheduler.

use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// A line of its own: anything else on it would travel with it.
static COUNTER: CachePadded<AtomicU64> = CachePadded::new(AtomicU64::new(0));

fn main() {
    let counter = &*COUNTER;
    let trips: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(2_000_000);
    let started = std::thread::scope(|scope| {
        scope.spawn(|| {
            // The other side: answers each odd value with the next even one.
            for i in 0..trips {
                while counter.load(Ordering::Acquire) != 2 * i + 1 {}
                counter.store(2 * i + 2, Ordering::Release);
            }
        });
        let started = Instant::now();
        for i in 0..trips {
            counter.store(2 * i + 1, Ordering::Release);
            while counter.load(Ordering::Acquire) != 2 * i + 2 {}
        }
        started.elapsed()
    });
    let ns = started.as_secs_f64() * 1e9 / trips as f64;
    println!("round trip {ns:.1} ns, one transfer {:.1} ns", ns / 2.0);
}
