/* unterm-peak COMMAND [ARGS...]: runs a command and reports its own peak memory.
 *
 * Tests need the peak resident memory of a child process, but a child started with
 * posix_spawn (Foundation's Process) shares the parent's memory until exec, and Linux carries
 * that peak across exec, so it would report the test runner's size. This small program forks
 * (its own size is a few hundred KB), execs the command, and prints on stderr, after the
 * command's own output:
 *
 *   unterm-peak: status=S peak_kib=N elapsed_ms=T cpu_us=C
 *
 * S is the exit status (128 + signal when killed); C the command's CPU time (user + system) in
 * microseconds, which load on a shared machine disturbs far less than the elapsed time. Exits 0 unless the command cannot run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: unterm-peak COMMAND [ARGS...]\n");
    return 64;
  }
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  pid_t pid = fork();
  if (pid < 0) {
    perror("unterm-peak: fork");
    return 71;
  }
  if (pid == 0) {
    execv(argv[1], argv + 1);
    perror("unterm-peak: exec");
    _exit(127);
  }
  int status = 0;
  struct rusage usage;
  while (wait4(pid, &status, 0, &usage) < 0) {
    if (errno != EINTR) {
      perror("unterm-peak: wait");
      return 71;
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  long elapsed = (end.tv_sec - start.tv_sec) * 1000L + (end.tv_nsec - start.tv_nsec) / 1000000L;
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  long cpu = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000L + usage.ru_utime.tv_usec +
             usage.ru_stime.tv_usec;
  fprintf(stderr, "unterm-peak: status=%d peak_kib=%ld elapsed_ms=%ld cpu_us=%ld\n", code, usage.ru_maxrss,
          elapsed, cpu);
  return 0;
}
