#include "CInstructionCounting.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define OBSERVATORY_HAS_CALLGRIND 1
#endif
#endif

#ifdef OBSERVATORY_HAS_CALLGRIND

int observatory_callgrind_available(void) { return 1; }

int observatory_running_on_valgrind(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }

void observatory_callgrind_start(void) { CALLGRIND_START_INSTRUMENTATION; }

void observatory_callgrind_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }

#else

int observatory_callgrind_available(void) { return 0; }

int observatory_running_on_valgrind(void) { return 0; }

void observatory_callgrind_start(void) {}

void observatory_callgrind_stop(void) {}

#endif
