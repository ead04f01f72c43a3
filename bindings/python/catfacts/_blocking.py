"""Blocking C calls that Ctrl-C can stop.

ctypes releases the GIL during a foreign call, but Python runs signal handlers only on the
main thread, between bytecodes: a SIGINT that arrives while the main thread is inside
``cf_breeds_page`` is noted and handled when the call returns, seconds later. So a blocking
call made on the main thread runs on a helper thread instead, while the main thread waits
on a lock in slices of :data:`_SLICE_S` (a lock wait is cut short by a signal, and the
slices bound the delay when the signal was delivered to another thread). When a signal
handler raises there (``KeyboardInterrupt``, or ``SystemExit`` from a SIGTERM handler),
the main thread calls ``cf_client_interrupt``, which makes the call return
``CF_ERR_CANCELLED`` within milliseconds, waits for the helper, and re-raises: the
client's handle is never left in use, and the client stays usable.

Other threads call C directly: Python never runs signal handlers there.
"""
from __future__ import annotations

import os
import queue
import threading
from typing import Callable, Generic, Optional, TypeVar

__all__ = ["run_interruptible"]

_T = TypeVar("_T")

# How long the main thread waits on the helper between looks at pending signals.
_SLICE_S = 0.05

_NEW, _RUNNING, _DONE, _ABANDONED = range(4)


class _Job(Generic[_T]):
    """One call handed to the helper: its state, and its result or exception."""

    __slots__ = ("call", "state", "lock", "done", "result", "error")

    def __init__(self, call: Callable[[], _T]) -> None:
        self.call = call
        self.state = _NEW
        self.lock = threading.Lock()  # guards state
        self.done = threading.Lock()  # held until the call has returned
        self.done.acquire()
        self.result: Optional[_T] = None
        self.error: Optional[BaseException] = None

    def run(self) -> None:
        with self.lock:
            if self.state == _ABANDONED:
                return
            self.state = _RUNNING
        try:
            self.result = self.call()
        except BaseException as error:  # handed to the caller, who re-raises it
            self.error = error
        finally:
            with self.lock:
                self.state = _DONE
            self.done.release()

    def abandon(self) -> int:
        """Marks a job the helper has not started as not to be run; the state it was in."""
        with self.lock:
            state = self.state
            if state == _NEW:
                self.state = _ABANDONED
            return state

    def wait_out(self) -> None:
        """Waits for a started call to return, whatever further signals say meanwhile: it
        was interrupted (or had finished) and returns within milliseconds, and until it has,
        its handle is in use."""
        while True:
            try:
                if self.done.acquire(timeout=_SLICE_S):
                    return
            except BaseException:  # a second Ctrl-C: the first one is being served
                continue


class _Helper:
    """The one thread that runs the main thread's blocking calls (it is a daemon: it is
    idle whenever the main thread is not waiting for it)."""

    def __init__(self) -> None:
        self._jobs: "queue.SimpleQueue[_Job[object]]" = queue.SimpleQueue()
        self._thread: Optional[threading.Thread] = None
        self._start_lock = threading.Lock()

    def submit(self, job: "_Job[object]") -> None:
        with self._start_lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="catfacts-main-calls", daemon=True)
                self._thread.start()
        self._jobs.put(job)

    def _run(self) -> None:
        while True:
            self._jobs.get().run()


_helper = _Helper()


def _after_fork_in_child() -> None:
    # The helper thread stayed in the parent, and its lock or queue may have been in use
    # there at the fork: the child starts a helper of its own.
    global _helper
    _helper = _Helper()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def run_interruptible(call: Callable[[], _T], interrupt: Callable[[], None]) -> _T:
    """``call()``, from which an exception raised by a signal handler on the main thread
    (Ctrl-C's ``KeyboardInterrupt``) gets out at once: ``interrupt()`` (which must make the
    call return soon, e.g. ``cf_client_interrupt``) is called, the call waited for, and the
    exception re-raised. Off the main thread, ``call()`` runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        return call()
    job: _Job[_T] = _Job(call)
    try:
        _helper.submit(job)  # type: ignore[arg-type]
        while not job.done.acquire(timeout=_SLICE_S):
            pass
    except BaseException:
        state = job.abandon()
        if state == _RUNNING:
            interrupt()
        if state != _NEW:
            job.wait_out()
        raise
    if job.error is not None:
        error, job.error = job.error, None
        raise error
    return job.result  # type: ignore[return-value]
