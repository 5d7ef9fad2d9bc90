#define _GNU_SOURCE
#include "CProcessControl.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

int process_control_allowed_cpu_count(void) {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  int count = CPU_COUNT(&set);
  return count > 0 ? count : 1;
#else
  return 1;
#endif
}

int process_control_pin_to_allowed_cpu(int index) {
#if defined(__linux__)
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) return -1;
  int count = CPU_COUNT(&allowed);
  if (count <= 0) {
    errno = EINVAL;
    return -1;
  }
  int wanted = ((index % count) + count) % count;
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
    if (!CPU_ISSET(cpu, &allowed)) continue;
    if (wanted-- > 0) continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(0, sizeof(one), &one) == 0 ? cpu : -1;
  }
  errno = EINVAL;
  return -1;
#else
  (void)index;
  errno = ENOSYS;
  return -1;
#endif
}

int process_control_die_with_parent(int expected_parent) {
#if defined(__linux__)
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
  // The parent may have gone between fork and the request: then no signal will come.
  if (expected_parent > 0 && getppid() != expected_parent) {
    errno = ESRCH;
    return -1;
  }
  return 0;
#else
  (void)expected_parent;
  errno = ENOSYS;
  return -1;
#endif
}

int process_control_precise_sleeps(void) { return prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0); }

int process_control_line_buffer_standard_output(void) {
  return setvbuf(stdout, NULL, _IOLBF, 0);
}
