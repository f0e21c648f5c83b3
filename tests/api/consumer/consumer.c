/* consumer_c PROJECT: the C API of an installed libextdeps. */
#include <extdeps/extdeps_c.h>
#include <stdio.h>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  printf("version %s\n", extdeps_version());
  extdeps_session* s = extdeps_session_new();
  if (!s) return 3;
  if (extdeps_session_set(s, "category", "build,host") != 0) {
    fprintf(stderr, "%s\n", extdeps_session_error(s));
    return 2;
  }
  extdeps_result* r = NULL;
  int code = extdeps_load(s, argv[1], &r);
  printf("load %d\n%s\n", code, code == 0 ? extdeps_result_json(r) : extdeps_result_error(r));
  extdeps_result_free(r);
  code = extdeps_check(s, argv[1], &r);
  printf("check %d\n", code);
  extdeps_result_free(r);
  code = extdeps_env(s, argv[1], &r);
  printf("env %d\n", code);
  if (code == 0 || code == 1) printf("%s", extdeps_result_env(r, "sh"));
  extdeps_result_free(r);
  code = extdeps_resolve(s, "/no/such/project", &r);
  printf("bad path %d: %s\n", code, extdeps_result_error(r));
  extdeps_result_free(r);
  extdeps_session_free(s);
  return 0;
}
