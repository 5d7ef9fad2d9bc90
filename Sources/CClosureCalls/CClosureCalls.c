#include "CClosureCalls.h"

#if __has_feature(ptrauth_calls)
#error "observatory_call_each calls Swift closures through raw function pointers, which pointer authentication forbids"
#endif

/// A Swift closure's function: the value by address, the context in Swift's context register.
typedef void (*swift_closure_function)(
    const void *value, void *__attribute__((swift_context)) context)
    __attribute__((swiftcall));

void observatory_call_each(
    const observatory_swift_closure *closures, size_t count, const void *value) {
  for (size_t index = 0; index < count; index++) {
    // Each entry is read when it is reached (a call may replace a later one; the compiler
    // cannot keep entries across an opaque call).
    swift_closure_function function = (swift_closure_function)closures[index].function;
    function(value, (void *)closures[index].context);
  }
}

/// Does nothing: the function of the tombstone closure.
__attribute__((swiftcall)) static void observatory_ignore(
    const void *value, void *__attribute__((swift_context)) context) {
  (void)value;
  (void)context;
}

observatory_swift_closure observatory_tombstone(void) {
  observatory_swift_closure tombstone = {(const void *)observatory_ignore, 0};
  return tombstone;
}
