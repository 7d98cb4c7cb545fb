/*
 * hook-spawn: starts a shell hook straight from Node's process the way Python's
 * subprocess does — posix_spawn (glibc: clone with CLONE_VM|CLONE_VFORK, so no page-table
 * copy however large Node has grown) — and learns of its exit through a pidfd polled on
 * Node's own event loop, so no helper process sits between Node and the hook.
 *
 * stdin/stdout/stderr are memfds: the payload is written before the spawn, the output is
 * read back by JS (pread at offset 0) once the hook has exited. Output memfds are O_APPEND
 * (a watchdog may truncate them to the capture cap and the first bytes stay) and sealable
 * (once read, `seal` shrinks and seals them, so a grandchild that outlives the hook cannot
 * make them grow).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <node_api.h>
#include <uv.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

extern char **environ;

typedef struct {
  uv_poll_t poll;
  napi_env env;
  napi_ref callback;
  napi_async_context context;
  pid_t pid;
  int pidfd;
} exit_watch;

#define CHECK(call)                                                         \
  do {                                                                      \
    if ((call) != napi_ok) {                                                \
      napi_throw_error(env, NULL, "hook-spawn: N-API call failed: " #call); \
      return NULL;                                                          \
    }                                                                       \
  } while (0)

static napi_value throw_errno(napi_env env, const char *what, int error) {
  char message[256];
  snprintf(message, sizeof message, "%s: %s", what, strerror(error));
  napi_value code, msg, err;
  napi_create_string_utf8(env, strerror(error), NAPI_AUTO_LENGTH, &code);
  napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &msg);
  napi_create_error(env, NULL, msg, &err);
  napi_value errno_value;
  napi_create_int32(env, error, &errno_value);
  napi_set_named_property(env, err, "errno", errno_value);
  napi_throw(env, err);
  return NULL;
}

static char *string_arg(napi_env env, napi_value value) {
  size_t length;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) return NULL;
  char *text = malloc(length + 1);
  if (text && napi_get_value_string_utf8(env, value, text, length + 1, &length) != napi_ok) {
    free(text);
    return NULL;
  }
  return text;
}

static void free_watch(uv_handle_t *handle) {
  exit_watch *watch = (exit_watch *)handle;
  free(watch);
}

static void on_pidfd(uv_poll_t *handle, int status, int events) {
  (void)status;
  (void)events;
  exit_watch *watch = (exit_watch *)handle;
  siginfo_t info;
  memset(&info, 0, sizeof info);
  int rc;
  do rc = waitid(P_PID, (id_t)watch->pid, &info, WEXITED | WNOHANG);
  while (rc < 0 && errno == EINTR);
  if (rc == 0 && info.si_pid == 0) return; /* not exited yet (spurious wake-up) */
  uv_poll_stop(&watch->poll);
  close(watch->pidfd);

  napi_env env = watch->env;
  napi_handle_scope scope;
  napi_open_handle_scope(env, &scope);
  napi_value callback, global, args[2], result;
  napi_get_reference_value(env, watch->callback, &callback);
  napi_get_global(env, &global);
  if (rc < 0) {
    napi_get_null(env, &args[0]);
    napi_get_null(env, &args[1]);
  } else if (info.si_code == CLD_EXITED) {
    napi_create_int32(env, info.si_status, &args[0]);
    napi_get_null(env, &args[1]);
  } else {
    napi_get_null(env, &args[0]);
    napi_create_int32(env, info.si_status, &args[1]);
  }
  /* make_callback: promise reactions run before control returns to the loop */
  if (napi_make_callback(env, watch->context, global, callback, 2, args, &result) != napi_ok) {
    /* the callback threw: surface it as an uncaught exception, as any async callback would */
    bool pending = false;
    napi_value exception;
    if (napi_is_exception_pending(env, &pending) == napi_ok && pending &&
        napi_get_and_clear_last_exception(env, &exception) == napi_ok)
      napi_fatal_exception(env, exception);
  }
  napi_delete_reference(env, watch->callback);
  napi_async_destroy(env, watch->context);
  napi_close_handle_scope(env, scope);
  uv_close((uv_handle_t *)&watch->poll, free_watch);
}

static int output_memfd(const char *name) {
  int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd >= 0 && fcntl(fd, F_SETFL, O_APPEND) < 0) {
    close(fd);
    return -1;
  }
  return fd;
}

/*
 * The process's environment without the variables named in `withheld` (the secrets a hook
 * must not inherit, hook-semantics §5.8). The entries point into `environ`; NULL on ENOMEM.
 */
static char **environ_without(char **withheld, uint32_t count) {
  size_t size = 0;
  while (environ[size]) size++;
  char **envp = calloc(size + 1, sizeof(char *));
  if (!envp) return NULL;
  size_t kept = 0;
  for (size_t i = 0; i < size; i++) {
    const char *entry = environ[i];
    const char *equals = strchr(entry, '=');
    size_t length = equals ? (size_t)(equals - entry) : strlen(entry);
    int drop = 0;
    for (uint32_t j = 0; j < count && !drop; j++) {
      drop = strlen(withheld[j]) == length && strncmp(withheld[j], entry, length) == 0;
    }
    if (!drop) envp[kept++] = (char *)entry;
  }
  return envp;
}

/*
 * spawn(file, argv, input, onExit, withheld?) → [pid, stdoutFd, stderrFd]
 * `file` is the program's resolved path (no PATH search here); onExit(code, signal) once
 * the hook has exited and been reaped. The hook is a session (and process-group) leader,
 * with every signal at its default disposition and none blocked, and inherits the
 * process's current environment, minus the variables named in the optional `withheld`
 * array, and working directory.
 */
static napi_value spawn_hook(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value args[5];
  CHECK(napi_get_cb_info(env, info, &argc, args, NULL, NULL));
  if (argc < 4) {
    napi_throw_type_error(env, NULL, "spawn(file, argv, input, onExit, withheld?)");
    return NULL;
  }
  uint32_t withheld_count = 0;
  bool has_withheld = false;
  if (argc >= 5) {
    napi_is_array(env, args[4], &has_withheld);
    if (has_withheld) CHECK(napi_get_array_length(env, args[4], &withheld_count));
  }
  uint32_t count;
  CHECK(napi_get_array_length(env, args[1], &count));
  void *input;
  size_t input_length;
  CHECK(napi_get_buffer_info(env, args[2], &input, &input_length));

  napi_value result = NULL;
  char *file = string_arg(env, args[0]);
  char **argv = calloc(count + 1, sizeof(char *));
  char **withheld = calloc(withheld_count + 1, sizeof(char *));
  char **envp = NULL;
  int in = -1, out = -1, err = -1, pidfd = -1;
  int error = 0;
  const char *what = NULL;
  if (!argv || !withheld) { error = ENOMEM; what = "argv"; goto done; }
  for (uint32_t i = 0; i < withheld_count; i++) {
    napi_value name;
    if (napi_get_element(env, args[4], i, &name) != napi_ok || !(withheld[i] = string_arg(env, name))) {
      error = EINVAL;
      what = "withheld must be an array of strings";
      goto done;
    }
  }
  if (!file || count == 0) { error = EINVAL; what = "file and argv must be non-empty strings"; goto done; }
  for (uint32_t i = 0; i < count; i++) {
    napi_value word;
    if (napi_get_element(env, args[1], i, &word) != napi_ok || !(argv[i] = string_arg(env, word))) {
      error = EINVAL;
      what = "argv must be an array of strings";
      goto done;
    }
  }

  in = memfd_create("hookgate-stdin", MFD_CLOEXEC);
  out = output_memfd("hookgate-stdout");
  err = output_memfd("hookgate-stderr");
  if (in < 0 || out < 0 || err < 0) { error = errno; what = "memfd_create"; goto done; }
  for (size_t written = 0; written < input_length;) {
    ssize_t n = write(in, (char *)input + written, input_length - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) { error = errno; what = "write stdin"; goto done; }
    written += (size_t)n;
  }
  lseek(in, 0, SEEK_SET);

  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
#if ULONG_MAX > 0xffffffffUL
  /* glibc's spawn child leaves its two internal signals (32, 33) ignored unless they are in
     the default set, and sigaddset refuses them: set their bits directly, so the hook starts
     with no signal ignored, as when Python or Node spawn it. */
  all.__val[0] |= (1UL << 31) | (1UL << 32);
#endif
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in, 0);
  posix_spawn_file_actions_adddup2(&actions, out, 1);
  posix_spawn_file_actions_adddup2(&actions, err, 2);
  posix_spawnattr_init(&attr);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  envp = withheld_count > 0 ? environ_without(withheld, withheld_count) : environ;
  pid_t pid;
  int rc = envp ? posix_spawn(&pid, file, &actions, &attr, argv, envp) : ENOMEM;
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) { error = rc; what = "posix_spawn"; goto done; }

  pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  exit_watch *watch = calloc(1, sizeof *watch);
  uv_loop_t *loop;
  if (pidfd < 0 || !watch || napi_get_uv_event_loop(env, &loop) != napi_ok ||
      uv_poll_init(loop, &watch->poll, pidfd) != 0) {
    /* cannot watch it: do not leave it running unobserved */
    error = pidfd < 0 ? errno : ENOMEM;
    what = "pidfd_open";
    kill(-pid, SIGKILL);
    waitpid(pid, NULL, 0);
    if (pidfd >= 0) close(pidfd);
    free(watch);
    goto done;
  }
  watch->env = env;
  watch->pid = pid;
  watch->pidfd = pidfd;
  napi_value resource_name;
  napi_create_string_utf8(env, "hookgate:hook-spawn", NAPI_AUTO_LENGTH, &resource_name);
  napi_async_init(env, NULL, resource_name, &watch->context);
  if (uv_poll_start(&watch->poll, UV_READABLE, on_pidfd) != 0) {
    error = EIO;
    what = "uv_poll_start";
    kill(-pid, SIGKILL);
    waitpid(pid, NULL, 0);
    napi_async_destroy(env, watch->context);
    uv_close((uv_handle_t *)&watch->poll, free_watch);
    close(pidfd);
    goto done;
  }
  napi_create_reference(env, args[3], 1, &watch->callback);

  napi_value values[3];
  napi_create_array_with_length(env, 3, &result);
  napi_create_int32(env, pid, &values[0]);
  napi_create_int32(env, out, &values[1]);
  napi_create_int32(env, err, &values[2]);
  for (uint32_t i = 0; i < 3; i++) napi_set_element(env, result, i, values[i]);
  out = err = -1; /* handed over to JS */

done:
  if (in >= 0) close(in);
  if (out >= 0) close(out);
  if (err >= 0) close(err);
  if (argv) {
    for (uint32_t i = 0; i < count; i++) free(argv[i]);
    free(argv);
  }
  if (withheld) {
    for (uint32_t i = 0; i < withheld_count; i++) free(withheld[i]);
    free(withheld);
  }
  if (envp && envp != environ) free(envp);
  free(file);
  if (error) return throw_errno(env, what, error);
  return result;
}

/* seal(fd): empties an output memfd and seals it against growth, then closes it. */
static napi_value seal_output(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value args[1];
  int32_t fd;
  CHECK(napi_get_cb_info(env, info, &argc, args, NULL, NULL));
  CHECK(napi_get_value_int32(env, args[0], &fd));
  if (ftruncate(fd, 0) == 0) fcntl(fd, F_ADD_SEALS, F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
  close(fd);
  return NULL;
}

/* supported(): whether this kernel has memfd and pidfd (Linux ≥ 5.3). */
static napi_value supported(napi_env env, napi_callback_info info) {
  (void)info;
  int ok = 0;
  int fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
  if (fd >= 0) {
    close(fd);
    int m = memfd_create("hookgate-probe", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (m >= 0) {
      ok = 1;
      close(m);
    }
  }
  napi_value result;
  napi_get_boolean(env, ok, &result);
  return result;
}

NAPI_MODULE_INIT(/* napi_env env, napi_value exports */) {
  napi_property_descriptor properties[] = {
      {"spawn", NULL, spawn_hook, NULL, NULL, NULL, napi_default, NULL},
      {"seal", NULL, seal_output, NULL, NULL, NULL, napi_default, NULL},
      {"supported", NULL, supported, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof properties / sizeof *properties, properties);
  return exports;
}
