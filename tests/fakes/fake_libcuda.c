/* A fake libcuda.so.1 for the driver probe tests: the CUDA Driver API entry points the probe
 * calls, answering from environment variables instead of a GPU.
 *   EXTDEPS_FAKE_CUDA_DRIVER      cuDriverGetVersion's answer (default 12040)
 *   EXTDEPS_FAKE_CUDA_DEVICES     "name:major.minor:bytes;..." (default none)
 *   EXTDEPS_FAKE_CUDA_INIT_ERROR  cuInit's return code (default 0)
 *   EXTDEPS_FAKE_CUDA_HANG=1      cuInit never returns
 *   EXTDEPS_FAKE_CUDA_CRASH=1     cuInit raises SIGSEGV
 *   EXTDEPS_FAKE_CUDA_GARBAGE=1   cuInit writes junk to stdout and exits 0
 *   EXTDEPS_FAKE_CUDA_ECHO_CVD=1  cuDeviceGetCount says 0 when CUDA_VISIBLE_DEVICES is set
 * Device i has the UUID bytes (i << 4) | k for k = 0..15. */
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

enum { SUCCESS = 0, INVALID_VALUE = 1, NOT_INITIALIZED = 3, INVALID_DEVICE = 101 };
enum { MAX_DEVICES = 16 };

struct device {
  char name[128];
  int major, minor;
  unsigned long long memory;
};

static int initialized;
static int device_count;
static struct device devices[MAX_DEVICES];

static int env_flag(const char* name) {
  const char* v = getenv(name);
  return v && strcmp(v, "1") == 0;
}

/* "NVIDIA H100 80GB HBM3:9.0:85899345920": split from the right, the name may hold colons. */
static void parse_devices(void) {
  const char* spec = getenv("EXTDEPS_FAKE_CUDA_DEVICES");
  device_count = 0;
  if (!spec) return;
  char* copy = strdup(spec);
  char* save = NULL;
  for (char* item = strtok_r(copy, ";", &save); item && device_count < MAX_DEVICES;
       item = strtok_r(NULL, ";", &save)) {
    char* mem = strrchr(item, ':');
    if (!mem) continue;
    *mem++ = '\0';
    char* cc = strrchr(item, ':');
    if (!cc) continue;
    *cc++ = '\0';
    struct device* d = &devices[device_count++];
    snprintf(d->name, sizeof d->name, "%s", item);
    d->major = d->minor = 0;
    sscanf(cc, "%d.%d", &d->major, &d->minor);
    d->memory = strtoull(mem, NULL, 10);
  }
  free(copy);
}

EXPORT int cuInit(unsigned int flags) {
  (void)flags;
  if (env_flag("EXTDEPS_FAKE_CUDA_HANG"))
    for (;;) pause();
  if (env_flag("EXTDEPS_FAKE_CUDA_CRASH")) raise(SIGSEGV);
  if (env_flag("EXTDEPS_FAKE_CUDA_GARBAGE")) {
    static const char junk[] = "this is not json\n";
    (void)!write(1, junk, sizeof junk - 1);
    _exit(0);
  }
  const char* err = getenv("EXTDEPS_FAKE_CUDA_INIT_ERROR");
  if (err && atoi(err) != 0) return atoi(err);
  parse_devices();
  initialized = 1;
  return SUCCESS;
}

EXPORT int cuDriverGetVersion(int* version) {
  if (!version) return INVALID_VALUE;
  const char* v = getenv("EXTDEPS_FAKE_CUDA_DRIVER");
  *version = v ? atoi(v) : 12040;
  return SUCCESS;
}

EXPORT int cuDeviceGetCount(int* count) {
  if (!initialized) return NOT_INITIALIZED;
  if (!count) return INVALID_VALUE;
  *count = env_flag("EXTDEPS_FAKE_CUDA_ECHO_CVD") && getenv("CUDA_VISIBLE_DEVICES") ? 0 : device_count;
  return SUCCESS;
}

EXPORT int cuDeviceGet(int* device, int ordinal) {
  if (!initialized) return NOT_INITIALIZED;
  if (!device) return INVALID_VALUE;
  if (ordinal < 0 || ordinal >= device_count) return INVALID_DEVICE;
  *device = ordinal;
  return SUCCESS;
}

EXPORT int cuDeviceGetAttribute(int* value, int attribute, int device) {
  if (!initialized) return NOT_INITIALIZED;
  if (!value) return INVALID_VALUE;
  if (device < 0 || device >= device_count) return INVALID_DEVICE;
  if (attribute == 75) *value = devices[device].major;
  else if (attribute == 76) *value = devices[device].minor;
  else return INVALID_VALUE;
  return SUCCESS;
}

EXPORT int cuDeviceGetName(char* name, int len, int device) {
  if (!initialized) return NOT_INITIALIZED;
  if (!name || len <= 0) return INVALID_VALUE;
  if (device < 0 || device >= device_count) return INVALID_DEVICE;
  snprintf(name, (size_t)len, "%s", devices[device].name);
  return SUCCESS;
}

EXPORT int cuDeviceTotalMem_v2(size_t* bytes, int device) {
  if (!initialized) return NOT_INITIALIZED;
  if (!bytes) return INVALID_VALUE;
  if (device < 0 || device >= device_count) return INVALID_DEVICE;
  *bytes = (size_t)devices[device].memory;
  return SUCCESS;
}

typedef struct {
  char bytes[16];
} fake_uuid;

EXPORT int cuDeviceGetUuid(fake_uuid* uuid, int device) {
  if (!initialized) return NOT_INITIALIZED;
  if (!uuid) return INVALID_VALUE;
  if (device < 0 || device >= device_count) return INVALID_DEVICE;
  for (int k = 0; k < 16; ++k) uuid->bytes[k] = (char)((device << 4) | k);
  return SUCCESS;
}

EXPORT int cuGetErrorName(int error, const char** name) {
  if (!name) return INVALID_VALUE;
  switch (error) {
    case 0: *name = "CUDA_SUCCESS"; return SUCCESS;
    case 3: *name = "CUDA_ERROR_NOT_INITIALIZED"; return SUCCESS;
    case 34: *name = "CUDA_ERROR_STUB_LIBRARY"; return SUCCESS;
    case 100: *name = "CUDA_ERROR_NO_DEVICE"; return SUCCESS;
    case 999: *name = "CUDA_ERROR_UNKNOWN"; return SUCCESS;
    default: *name = NULL; return INVALID_VALUE;
  }
}
