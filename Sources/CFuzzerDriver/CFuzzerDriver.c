#include "CFuzzerDriver.h"

#include <stdio.h>
#include <stdlib.h>

static ObservatoryFuzzCallback observatory_callback;

void observatory_set_fuzz_callback(ObservatoryFuzzCallback callback) {
  observatory_callback = callback;
}

// libFuzzer's entry point. The executable's own `main` starts libFuzzer's driver with its
// callback (see FuzzDriver); this definition only satisfies libFuzzer's `main`, which the
// linker may pull in beside it, and says so if that `main` ever runs instead of ours.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (observatory_callback == NULL) {
    fprintf(stderr, "observatory-fuzz: libFuzzer's main ran instead of the executable's\n");
    abort();
  }
  return observatory_callback(data, size);
}
