#ifndef OBSERVATORY_C_REFERENCE_H
#define OBSERVATORY_C_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

/// An observer as C would store it: a function pointer and its context, side by side.
typedef struct {
  void (*function)(void *context, int64_t value);
  void *context;
} observatory_observer;

/// The physical limit of notification: calls every observer of a contiguous array with `value`.
void observatory_notify_all(const observatory_observer *observers, size_t count, int64_t value);

/// A minimal observer: adds `value` to the int64_t its context points to.
void observatory_accumulate(void *context, int64_t value);

#endif
