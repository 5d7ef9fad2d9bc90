#ifndef OBSERVATORY_C_CLOSURE_CALLS_H
#define OBSERVATORY_C_CLOSURE_CALLS_H

#include <stddef.h>

/// A Swift closure of type `(Value) -> Void` as it lies in memory: its function and its context
/// (NULL for a closure that captures nothing). Swift stores a closure kept in a generic
/// container (an array's element, an unsafe pointer's pointee) at its most general abstraction:
/// the function takes a pointer to the value and the context, in Swift's calling convention.
typedef struct {
  const void *function;
  const void *context;
} observatory_swift_closure;

/// Calls `closures[0..<count]` in order, each with the value `value` points to, without
/// retaining or releasing any context: the caller keeps every context alive until this returns
/// (a closure replaced during the walk must not be released before it ends), and does not move
/// or free `closures` meanwhile; a closure replaced in place is seen by the walk if it has not
/// been called yet.
///
/// Complexity: O(count) calls.
void observatory_call_each(
    const observatory_swift_closure *closures, size_t count, const void *value);

/// A closure that does nothing and has no context, so that it can be copied and dropped as
/// plain words: what a cancelled entry holds. Only C calls it (through
/// `observatory_call_each`), in Swift's calling convention like every entry.
observatory_swift_closure observatory_tombstone(void);

#endif
