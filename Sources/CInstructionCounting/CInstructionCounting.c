#include "CInstructionCounting.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define OBSERVATORY_HAS_CALLGRIND 1
#endif
#endif

#ifdef OBSERVATORY_HAS_CALLGRIND

int instruction_counting_available(void) { return 1; }

int instruction_counting_on_valgrind(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }

void instruction_counting_start(void) { CALLGRIND_START_INSTRUMENTATION; }

void instruction_counting_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }

#else

int instruction_counting_available(void) { return 0; }

int instruction_counting_on_valgrind(void) { return 0; }

void instruction_counting_start(void) {}

void instruction_counting_stop(void) {}

#endif
