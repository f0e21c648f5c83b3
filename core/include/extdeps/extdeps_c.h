/* The extdeps library from C, and from any language that can call C (Python's ctypes, Rust, Go):
 * opaque handles, exit codes, error strings and JSON out. What each JSON holds is described in
 * schema/plan.schema.json (resolve, check), schema/detect.schema.json (detect),
 * schema/env.schema.json (env) and docs/library.md (load).
 *
 *   extdeps_session* s = extdeps_session_new();
 *   extdeps_session_set(s, "category", "build,host");
 *   extdeps_result* r = NULL;
 *   int code = extdeps_check(s, "path/to/project", &r);   // 0 met, 1 missing, 2 bad input, 3 machine
 *   puts(code == 0 || code == 1 ? extdeps_result_text(r) : extdeps_result_error(r));
 *   extdeps_result_free(r);
 *   extdeps_session_free(s);
 *
 * Strings returned are owned by the handle they come from and live as long as it does. No call
 * keeps a pointer it was given. A session is not for two threads at once. */
#ifndef EXTDEPS_EXTDEPS_C_H
#define EXTDEPS_EXTDEPS_C_H

#include "extdeps/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct extdeps_session extdeps_session;
typedef struct extdeps_result extdeps_result;

/* "0.1.0" */
EXTDEPS_API const char* extdeps_version(void);

/* A session over the running process's machine and environment; NULL only when out of memory. */
EXTDEPS_API extdeps_session* extdeps_session_new(void);
EXTDEPS_API void extdeps_session_free(extdeps_session* session);

/* Sets an option, as the command line would; lists take comma-separated values and each call
 * adds to them. Returns 0, or 2 for an unknown key or a bad value (extdeps_session_error says
 * which). Keys: "root", "manager", "category", "optional", "all-optional" ("1"/"0"), "no-cache"
 * ("1"/"0"), "cache-dir", "mapping-dir", "host" (a `detect --save` file), "offline" ("1"/"0"),
 * "python" (the interpreter pypi plans for), "system" ("fedora:41"), as the command line's
 * options of those names (the rows of core/config/command_options.cc that bind a library field); every
 * provider option by its flag's name ("channel", "prefix", "index-url", "extra-index-url",
 * "nix-index": `extdeps providers` lists them); "program" (the extdeps binary that probes the
 * driver), "env" ("NAME=VALUE", set over the process's environment). "reset" (any value) forgets
 * every option. */
EXTDEPS_API int extdeps_session_set(extdeps_session* session, const char* key, const char* value);
/* The last error of extdeps_session_set, or NULL. */
EXTDEPS_API const char* extdeps_session_error(const extdeps_session* session);

/* Each operation returns its exit code (docs/exit-codes.md) and, when `out` is not NULL, hands
 * over a result to free with extdeps_result_free, also on failure (it holds the error). PATH is
 * a project folder or a declaration file; NULL means ".". */
EXTDEPS_API int extdeps_load(extdeps_session* session, const char* path, extdeps_result** out);
EXTDEPS_API int extdeps_resolve(extdeps_session* session, const char* path, extdeps_result** out);
/* 0 when every need is met, else 1 with what is missing and how to install it. */
EXTDEPS_API int extdeps_check(extdeps_session* session, const char* path, extdeps_result** out);
/* 0 when every need is met, else 1; extdeps_result_env gives the variables of the met ones. */
EXTDEPS_API int extdeps_env(extdeps_session* session, const char* path, extdeps_result** out);
EXTDEPS_API int extdeps_detect(extdeps_session* session, extdeps_result** out);

EXTDEPS_API int extdeps_result_code(const extdeps_result* result);
/* The error's one line for people ("pyproject.toml:14:5: unknown DepURL type ..."), or NULL. */
EXTDEPS_API const char* extdeps_result_error(const extdeps_result* result);
/* JSON, or NULL after an error. */
EXTDEPS_API const char* extdeps_result_json(const extdeps_result* result);
/* For people, as the command prints it (resolve, check, env when needs are missing), or NULL. */
EXTDEPS_API const char* extdeps_result_text(const extdeps_result* result);
/* For an env result: the variables as "sh", "cmake" or "json"; NULL for another format or result. */
EXTDEPS_API const char* extdeps_result_env(const extdeps_result* result, const char* format);
EXTDEPS_API void extdeps_result_free(extdeps_result* result);

#ifdef __cplusplus
}
#endif

#endif /* EXTDEPS_EXTDEPS_C_H */
