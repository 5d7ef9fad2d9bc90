#ifndef OBSERVATORY_C_INSTRUCTION_COUNTING_H
#define OBSERVATORY_C_INSTRUCTION_COUNTING_H

/// Whether this build can bracket a region for callgrind: 1 when valgrind's `callgrind.h` was
/// found at build time (Debian: the `valgrind` package), 0 when the calls below do nothing.
int instruction_counting_available(void);

/// Whether the process runs under valgrind: 1 or 0 (always 0 without `callgrind.h`).
int instruction_counting_on_valgrind(void);

/// Starts callgrind's instrumentation: from here on, executed instructions are counted. Run the
/// process with `--instr-atstart=no` so that nothing before the first call counts. Outside
/// valgrind it costs a few instructions and does nothing.
void instruction_counting_start(void);

/// Stops callgrind's instrumentation: what follows is not counted.
void instruction_counting_stop(void);

#endif
