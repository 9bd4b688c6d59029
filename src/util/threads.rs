//! Threads that may not start: when the system refuses one (a thread or address-space limit),
//! the work is done with fewer threads instead of aborting the process.

use std::io;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{Builder, JoinHandle, Scope, ScopedJoinHandle};

/// Starts `work` on a new thread of `scope`; `None` when the system cannot start one (the
/// caller then does without it, or does the work itself).
pub fn try_spawn_scoped<'scope, 'env, T, F>(
    scope: &'scope Scope<'scope, 'env>,
    work: F,
) -> Option<ScopedJoinHandle<'scope, T>>
where
    T: Send + 'scope,
    F: FnOnce() -> T + Send + 'scope,
{
    match Builder::new().spawn_scoped(scope, work) {
        Ok(handle) => Some(handle),
        Err(error) => {
            log::warn!("cannot start a search thread ({error}): searching with fewer threads");
            None
        }
    }
}

/// Starts `body(value)` on a new thread named `name`; when the system cannot start one, gives
/// `value` back with the reason, so the caller can do the work itself.
pub fn spawn_with<T, B>(name: &str, value: T, body: B) -> Result<JoinHandle<()>, (T, io::Error)>
where
    T: Send + 'static,
    B: FnOnce(T) + Send + 'static,
{
    let slot = Arc::new(Mutex::new(Some(value)));
    let theirs = Arc::clone(&slot);
    let started = Builder::new().name(name.to_owned()).spawn(move || {
        let value = theirs.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(value) = value {
            body(value);
        }
    });
    started.map_err(|error| {
        let value = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
        (
            value.expect("a thread that never started took nothing"),
            error,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_started_thread_gets_the_value() {
        let (sender, receiver) = std::sync::mpsc::channel();
        let handle = spawn_with("test", 41, move |n| sender.send(n + 1).unwrap());
        handle.map_err(|(_, e)| e).unwrap().join().unwrap();
        assert_eq!(receiver.recv().unwrap(), 42);
    }
}
