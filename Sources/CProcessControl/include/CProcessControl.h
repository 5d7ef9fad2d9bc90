#ifndef OBSERVATORY_C_PROCESS_CONTROL_H
#define OBSERVATORY_C_PROCESS_CONTROL_H

/// The number of processors this process may run on (its affinity mask), at least 1.
int process_control_allowed_cpu_count(void);

/// Restricts the calling process to the `index`-th processor of its current affinity mask
/// (counting from 0, wrapping around). Returns the processor's number, or -1 with `errno` set.
/// `sched_setaffinity`'s `cpu_set_t` macros are not visible to Swift.
int process_control_pin_to_allowed_cpu(int index);

/// Asks the kernel to send SIGKILL to the calling process when the thread that started it
/// ends, so that a cell process never outlives a sweep that was killed. Returns 0, or -1 if the
/// parent had already gone (the caller should exit) or the request failed. `prctl` is variadic
/// and so not callable from Swift.
int process_control_die_with_parent(int expected_parent);

/// Sets the calling thread's timer slack to 1 ns, so that a `usleep(20)` sleeps about 20 µs
/// rather than the 50 µs of slack Linux adds by default. Returns 0, or -1 with `errno` set.
/// `prctl` is variadic and so not callable from Swift.
int process_control_precise_sleeps(void);

/// Makes the C library's standard output line-buffered (`setvbuf(stdout, NULL, _IOLBF, 0)`).
/// Returns 0, or nonzero if the request failed. `stdout` is a global variable, which Swift 6
/// does not let concurrent code read.
int process_control_line_buffer_standard_output(void);

#endif
