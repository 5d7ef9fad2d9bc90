#include "CReference.h"

void observatory_notify_all(const observatory_observer *observers, size_t count, int64_t value) {
  for (size_t index = 0; index < count; index++) {
    observers[index].function(observers[index].context, value);
  }
}

void observatory_accumulate(void *context, int64_t value) {
  // A volatile access keeps the compiler from folding the calls away.
  volatile int64_t *sink = (volatile int64_t *)context;
  *sink += value;
}
