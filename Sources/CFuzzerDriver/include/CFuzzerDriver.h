#ifndef C_FUZZER_DRIVER_H
#define C_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// What libFuzzer calls with each input.
typedef int (*ObservatoryFuzzCallback)(const uint8_t *data, size_t size);

/// libFuzzer's driver, present when the executable is linked with `-sanitize=fuzzer` and null
/// otherwise: a weak reference, so that an ordinary build links without libFuzzer.
int LLVMFuzzerRunDriver(int *argc, char ***argv, ObservatoryFuzzCallback callback)
    __attribute__((weak));

/// Whether this executable was linked with libFuzzer.
static inline int observatory_fuzzer_is_linked(void) { return LLVMFuzzerRunDriver != NULL; }

/// Runs libFuzzer's driver over `argc` and `argv` (its options and corpus directories), calling
/// `callback` with each input; returns its exit status. Only when
/// `observatory_fuzzer_is_linked()`.
static inline int observatory_run_fuzzer(int *argc, char ***argv, ObservatoryFuzzCallback callback) {
  return LLVMFuzzerRunDriver(argc, argv, callback);
}

/// Sets what libFuzzer's entry point, `LLVMFuzzerTestOneInput`, calls.
void observatory_set_fuzz_callback(ObservatoryFuzzCallback callback);

/// libFuzzer's entry point, defined here so that the executable links with libFuzzer's `main`
/// in the archive: it calls what `observatory_set_fuzz_callback` set.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
