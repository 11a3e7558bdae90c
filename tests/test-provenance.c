/*
 * test-provenance.c
 *	harness/store/provenance.c, harness/measure/nvml.c and `tcprobe info`:
 *	  - NVML absent (TCP_NVML_LIB=/nonexistent/...): every call degrades to
 *	    -1 / NaN / "NA (<reason>)", nothing crashes;
 *	  - NVML present: a fake libnvidia-ml (the C source below, compiled with
 *	    cc into the test's temporary directory at run time) drives the real
 *	    dlopen/dlsym path: sampling, the clock-event name fallback, board
 *	    facts, UUID/PCI mapping, a refused query, a failing nvmlInit, a
 *	    forked child refused the parent's handles;
 *	  - host provenance fills every key, command lines are shell-quoted;
 *	  - GPU provenance without a GPU gives NA values and the CUDA reason
 *	    (with a GPU: a well-formed UUID, capability, SM count);
 *	  - the key/value table, its CSV round trip, the run directory name;
 *	  - `tcprobe info` exit statuses (0 GPU, 3 no GPU, 2 bad usage).
 *	The random values come from a fresh seed, printed for a replay
 *	(TCP_TEST_SEED=<n> pins it).
 */
#include <math.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/cmd/cmd-list.h"
#include "harness/measure/nvml.h"
#include "harness/store/columns.h"
#include "harness/measure/provenance-live.h"
#include "harness/store/provenance.h"
#include "probes/common/probe.h"
#include "test-util.h"

static char dir[256];

static int matches(const char *s, const char *re)
{
	regex_t r;
	int ok;

	assert_int_equal(regcomp(&r, re, REG_EXTENDED | REG_NOSUB), 0);
	ok = regexec(&r, s, 0, NULL, 0) == 0;
	regfree(&r);
	if (!ok)
		print_error("'%s' does not match /%s/\n", s, re);
	return ok;
}

/* ---- a fake libnvidia-ml.so.1 ----------------------------------------- */

/* Two boards; board 1 is power- and thermally capped, ECC pending off.  Only
 * the newer name of the clock-event query exists, and application clocks
 * are "Not Supported", as on recent drivers. */
static const char fake_src[] =
	"#include <stdio.h>\n"
	"#include <string.h>\n"
	"#include <strings.h>\n"
	"typedef struct { char l[16]; unsigned d, b, dev, id, sub; char bus[32]; } pci_t;\n"
	"typedef struct { unsigned long long total, free, used; } mem_t;\n"
	"static long devs[2];\n"
	"static int ix(void *d) { return (int)((long *)d - devs); }\n"
	"int nvmlInit_v2(void) {\n"
	"#ifdef FAIL_INIT\n"
	"  return 9;\n"
	"#endif\n"
	"  return 0; }\n"
	"int nvmlShutdown(void) { return 0; }\n"
	"const char *nvmlErrorString(int r) { return r == 3 ? \"Not Supported\" : r == 9 ?"
	"  \"Driver Not Loaded\" : \"Unknown Error\"; }\n"
	"int nvmlSystemGetDriverVersion(char *b, unsigned n) { snprintf(b, n, \"580.159.04\"); return 0; }\n"
	"int nvmlDeviceGetCount_v2(unsigned *n) { *n = 2; return 0; }\n"
	"int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **d) { if (i >= 2) return 2; *d = &devs[i]; return 0; }\n"
	"int nvmlDeviceGetHandleByUUID(const char *u, void **d) { for (int i = 0; i < 2; i++) {\n"
	"  char w[64]; snprintf(w, 64, \"GPU-11111111-2222-3333-4444-55555555555%d\", i);\n"
	"  if (!strcmp(u, w)) { *d = &devs[i]; return 0; } } return 6; }\n"
	"int nvmlDeviceGetHandleByPciBusId_v2(const char *b, void **d) { for (int i = 0; i < 2; i++) {\n"
	"  char w[64]; snprintf(w, 64, \"0000:%02x:00.0\", 0x19 + 0x11 * i);\n"
	"  if (!strcasecmp(b, w)) { *d = &devs[i]; return 0; } } return 6; }\n"
	"int nvmlDeviceGetIndex(void *d, unsigned *i) { *i = ix(d); return 0; }\n"
	"int nvmlDeviceGetName(void *d, char *b, unsigned n) { (void)d; snprintf(b, n, \"NVIDIA H200\"); return 0; }\n"
	"int nvmlDeviceGetUUID(void *d, char *b, unsigned n) {\n"
	"  snprintf(b, n, \"GPU-11111111-2222-3333-4444-55555555555%d\", ix(d)); return 0; }\n"
	"int nvmlDeviceGetPciInfo_v3(void *d, pci_t *p) { memset(p, 0, sizeof(*p)); p->b = 0x19 + 0x11 * ix(d);\n"
	"  snprintf(p->bus, 32, \"00000000:%02X:00.0\", p->b); return 0; }\n"
	"int nvmlDeviceGetClockInfo(void *d, int t, unsigned *v) { if (t != 1) return 3; *v = 1500 + ix(d); return 0; }\n"
	"int nvmlDeviceGetMaxClockInfo(void *d, int t, unsigned *v) { (void)d; *v = t == 1 ? 1980 : t == 2 ? 3201 : 0; return t == 1 || t == 2 ? 0 : 3; }\n"
	"int nvmlDeviceGetApplicationsClock(void *d, int t, unsigned *v) { (void)d; (void)t; (void)v; return 3; }\n"
	"int nvmlDeviceGetMemoryInfo(void *d, mem_t *m) { (void)d; m->total = 150754820096ULL; m->free = m->used = 0; return 0; }\n"
	"int nvmlDeviceGetEnforcedPowerLimit(void *d, unsigned *v) { (void)d; *v = 700000; return 0; }\n"
	"int nvmlDeviceGetPowerUsage(void *d, unsigned *v) { *v = 350123 + ix(d); return 0; }\n"
	"int nvmlDeviceGetEccMode(void *d, int *c, int *p) { *c = 1; *p = ix(d) ? 0 : 1; return 0; }\n"
	"int nvmlDeviceGetPersistenceMode(void *d, int *m) { *m = !ix(d); return 0; }\n"
	"int nvmlDeviceGetCurrentClocksEventReasons(void *d, unsigned long long *m) { *m = ix(d) ? 0x24 : 0; return 0; }\n"
	"int nvmlDeviceGetTotalEnergyConsumption(void *d, unsigned long long *e) { *e = 123456789ULL + ix(d); return 0; }\n";

/* Build the fake library as dir/<name>, with extra compiler flags. */
static const char *build_fake(const char *name, const char *flags)
{
	static char so[512];
	char src[512], cmd[2048];
	const char *cc = getenv("CC");
	FILE *f;

	snprintf(src, sizeof(src), "%s/fake-nvml.c", dir);
	snprintf(so, sizeof(so), "%s/%s", dir, name);
	f = fopen(src, "w");
	assert_non_null(f);
	assert_int_equal(fputs(fake_src, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof(cmd), "%s -shared -fPIC -O1 %s -o '%s' '%s'", cc && *cc ? cc : "cc",
		 flags, so, src);
	if (system(cmd) != 0) {
		print_error("cannot build the fake NVML: %s\n", cmd);
		fail();
	}
	return so;
}

static void test_nvml_absent(void **state)
{
	char why[512] = "", tmp[64];
	double clk = 0, pw = 0;
	unsigned long long mask = 0, mj = 0;
	tcp_nvml_info_t ni;
	static tcp_prov_t p;

	(void)state;
	tcp_nvml_close();
	setenv("TCP_NVML_LIB", "/nonexistent/libnvidia-ml.so.1", 1);
	assert_int_equal(tcp_nvml_open(why, sizeof(why)), -1);
	assert_non_null(strstr(why, "/nonexistent/libnvidia-ml.so.1"));
	/* remembered: the same reason without another dlopen */
	char again[512] = "";
	assert_int_equal(tcp_nvml_open(again, sizeof(again)), -1);
	assert_string_equal(again, why);

	assert_int_equal(tcp_nvml_count(), -1);
	assert_int_equal(tcp_nvml_index_by_uuid("GPU-11111111-2222-3333-4444-555555555550"), -1);
	assert_int_equal(tcp_nvml_index_by_pci("0000:19:00.0"), -1);
	assert_int_equal(tcp_nvml_sample(0, &clk, &mask, &pw), -1);
	assert_true(isnan(clk) && isnan(pw));
	assert_true(mask == ~0ULL);
	assert_string_equal(tcp_nvml_throttle_str(mask, tmp, sizeof(tmp)), "NA");
	assert_int_equal(tcp_nvml_energy_mj(0, &mj), -1);
	assert_int_equal(tcp_nvml_info(0, &ni, tmp, sizeof(tmp)), -1);
	const char *fields[] = { ni.name, ni.uuid, ni.driver_version, ni.sm_clock_max_mhz,
				 ni.sm_clock_app_mhz, ni.mem_clock_max_mhz, ni.memory_total_bytes,
				 ni.power_limit_w, ni.ecc, ni.persistence_mode, ni.pci_bus_id };
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		assert_true(matches(fields[i], "^NA \\(.*nonexistent"));

	/* provenance records why, and the GPU part still fills its keys */
	tcp_prov_init(&p);
	tcp_prov_collect_host(&p, 0, NULL);
	assert_true(matches(tcp_prov_get(&p, "nvml"), "^NA \\(NVML not loadable: .*/nonexistent/"));
	tcp_prov_collect_gpu(&p, 0, why, sizeof(why));
	assert_true(matches(tcp_prov_get(&p, "nvml"), "^NA \\(.*nonexistent"));
	assert_true(matches(tcp_prov_get(&p, "power_limit_w"), "^NA \\(.*nonexistent"));
	assert_true(matches(tcp_prov_get(&p, "persistence_mode"), "^NA \\("));
	tcp_nvml_close();
}

static void test_nvml_fake(void **state)
{
	char why[256] = "", tmp[128];
	double clk, pw;
	unsigned long long mask, mj;
	tcp_nvml_info_t ni;

	(void)state;
	tcp_nvml_close();
	setenv("TCP_NVML_LIB", build_fake("libfake-nvml.so", ""), 1);
	if (tcp_nvml_open(why, sizeof(why)) != 0) {
		print_error("fake NVML: %s\n", why);
		fail();
	}
	assert_int_equal(tcp_nvml_open(why, sizeof(why)), 0);	/* idempotent */
	assert_int_equal(tcp_nvml_count(), 2);

	/* sampling; board 1's mask comes through the newer entry point's name */
	assert_int_equal(tcp_nvml_sample(1, &clk, &mask, &pw), 0);
	assert_true(clk == 1501.0);
	assert_true(mask == (TCP_THR_SW_POWER_CAP | TCP_THR_SW_THERMAL));
	assert_true(fabs(pw - 350.124) < 1e-9);
	assert_string_equal(tcp_nvml_throttle_str(mask, tmp, sizeof(tmp)), "sw_power_cap|sw_thermal");
	assert_int_equal(tcp_nvml_sample(0, &clk, &mask, NULL), 0);
	assert_true(mask == 0 && clk == 1500.0);
	assert_int_equal(tcp_nvml_sample(0, NULL, NULL, NULL), 0);
	assert_int_equal(tcp_nvml_sample(7, &clk, &mask, &pw), -1);	/* no such board */
	assert_true(isnan(clk) && mask == ~0ULL && isnan(pw));
	assert_int_equal(tcp_nvml_energy_mj(1, &mj), 0);
	assert_true(mj == 123456790ULL);

	/* mapping CUDA's view (UUID, PCI id) to NVML indices */
	assert_int_equal(tcp_nvml_index_by_uuid("GPU-11111111-2222-3333-4444-555555555551"), 1);
	assert_int_equal(tcp_nvml_index_by_uuid("GPU-11111111-2222-3333-4444-555555555550"), 0);
	assert_int_equal(tcp_nvml_index_by_uuid("GPU-deadbeef-0000-0000-0000-000000000000"), -1);
	assert_int_equal(tcp_nvml_index_by_pci("0000:2A:00.0"), 1);
	assert_int_equal(tcp_nvml_index_by_pci("0000:77:00.0"), -1);

	/* board facts: a refused query is NA with NVML's own words */
	assert_int_equal(tcp_nvml_info(0, &ni, why, sizeof(why)), 0);
	assert_string_equal(ni.name, "NVIDIA H200");
	assert_string_equal(ni.uuid, "GPU-11111111-2222-3333-4444-555555555550");
	assert_string_equal(ni.pci_bus_id, "0000:19:00.0");
	assert_string_equal(ni.driver_version, "580.159.04");
	assert_string_equal(ni.sm_clock_max_mhz, "1980");
	assert_string_equal(ni.sm_clock_app_mhz, "NA (Not Supported)");
	assert_string_equal(ni.mem_clock_max_mhz, "3201");
	assert_string_equal(ni.memory_total_bytes, "150754820096");
	assert_string_equal(ni.power_limit_w, "700.0");
	assert_string_equal(ni.ecc, "on");
	assert_string_equal(ni.persistence_mode, "on");
	assert_int_equal(tcp_nvml_info(1, &ni, why, sizeof(why)), 0);
	assert_string_equal(ni.ecc, "on (pending off)");
	assert_string_equal(ni.persistence_mode, "off");
	assert_string_equal(ni.pci_bus_id, "0000:2a:00.0");
	assert_int_equal(tcp_nvml_info(5, &ni, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no NVML device 5"));
	assert_true(matches(ni.name, "^NA \\(no NVML device 5"));

	/* a child forked after open must not use the parent's NVML handles */
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char w[256] = "";
		double c = 0;
		int bad = tcp_nvml_open(w, sizeof(w)) != -1 || !strstr(w, "before fork") ||
			  tcp_nvml_sample(0, &c, NULL, NULL) != -1 || !isnan(c) ||
			  tcp_nvml_count() != -1;
		tcp_nvml_close();	/* refuses to shut the parent's NVML down */
		bad |= tcp_nvml_open(w, sizeof(w)) != -1 || !strstr(w, "before fork");
		_exit(bad ? 1 : 0);
	}
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(tcp_nvml_sample(1, &clk, NULL, NULL), 0);	/* parent unaffected */
	assert_true(clk == 1501.0);

	/* with NVML up but no CUDA device to match, provenance says which */
	static tcp_prov_t p;
	tcp_prov_init(&p);
	tcp_prov_collect_gpu(&p, 999, why, sizeof(why));
	assert_string_equal(tcp_prov_get(&p, "nvml"), "ok");
	assert_true(matches(tcp_prov_get(&p, "nvml_index"), "^NA \\(no NVML device matches"));
	tcp_nvml_close();
	assert_int_equal(tcp_nvml_count(), -1);
}

static void test_nvml_init_fails(void **state)
{
	char why[256] = "";

	(void)state;
	tcp_nvml_close();
	setenv("TCP_NVML_LIB", build_fake("libfake-nvml-noinit.so", "-DFAIL_INIT"), 1);
	assert_int_equal(tcp_nvml_open(why, sizeof(why)), -1);
	assert_string_equal(why, "nvmlInit_v2: Driver Not Loaded");
	tcp_nvml_close();
	unsetenv("TCP_NVML_LIB");
}

static void test_throttle_str(void **state)
{
	char b[128], small[8];

	(void)state;
	assert_string_equal(tcp_nvml_throttle_str(0, b, sizeof(b)), "none");
	assert_string_equal(tcp_nvml_throttle_str(~0ULL, b, sizeof(b)), "NA");
	assert_string_equal(tcp_nvml_throttle_str(TCP_THR_SW_POWER_CAP, b, sizeof(b)), "sw_power_cap");
	assert_string_equal(tcp_nvml_throttle_str(TCP_THR_HW_SLOWDOWN, b, sizeof(b)), "hw_slowdown");
	assert_string_equal(tcp_nvml_throttle_str(TCP_THR_SW_THERMAL | TCP_THR_GPU_IDLE, b, sizeof(b)),
			    "idle|sw_thermal");
	assert_string_equal(tcp_nvml_throttle_str(0x1000 | TCP_THR_HW_POWER_BRAKE, b, sizeof(b)),
			    "hw_power_brake|0x1000");
	/* every bit named once, in bit order */
	assert_string_equal(tcp_nvml_throttle_str(0x1ff, b, sizeof(b)),
			    "idle|app_clocks|sw_power_cap|hw_slowdown|sync_boost|sw_thermal|"
			    "hw_thermal|hw_power_brake|display_clocks");
	/* a short buffer truncates, never overflows */
	tcp_nvml_throttle_str(0x1ff, small, sizeof(small));
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_true((TCP_THR_SLOWDOWN & (TCP_THR_GPU_IDLE | TCP_THR_APP_CLOCKS)) == 0);
}

static const char *const host_keys[] = {
	"schema_version", "tcprobe_version", "git_commit", "git_dirty", "cuda_toolkit_version",
	"command_line", "started_utc", "host", "os", "cpu", "cpu_count", "nvml",
};

static const char *const gpu_keys[] = {
	"gpu_index", "gpu_name", "gpu_uuid", "compute_capability", "sm_count", "sm_clock_max_mhz",
	"sm_clock_app_mhz", "mem_clock_max_mhz", "memory_total_bytes", "l2_bytes",
	"driver_version", "cuda_driver_version", "cuda_runtime_version", "ecc", "power_limit_w",
	"persistence_mode", "pcie_bus_id", "nvml", "nvml_index",
};

static void test_host(void **state)
{
	static tcp_prov_t p;
	char *argv[] = { "tcprobe", "run", "--set", "N=[8,16]", "it's", "", "a b", NULL };
	char host[256];
	struct utsname u;

	(void)state;
	tcp_prov_init(&p);
	tcp_prov_collect_host(&p, 7, argv);
	for (size_t i = 0; i < sizeof(host_keys) / sizeof(host_keys[0]); i++) {
		const char *v = tcp_prov_get(&p, host_keys[i]);
		if (!v || !*v) {
			print_error("host key %s missing or empty\n", host_keys[i]);
			fail();
		}
	}
	assert_int_equal(p.n, (int)(sizeof(host_keys) / sizeof(host_keys[0])));
	assert_int_equal(atoi(tcp_prov_get(&p, "schema_version")), TCP_SCHEMA_VERSION);
	assert_string_equal(tcp_prov_get(&p, "git_commit"), TCP_GIT_COMMIT);
	assert_int_equal(atoi(tcp_prov_get(&p, "git_dirty")), TCP_GIT_DIRTY);
	assert_string_equal(tcp_prov_get(&p, "cuda_toolkit_version"), TCP_CUDA_TOOLKIT);
	assert_string_equal(tcp_prov_get(&p, "command_line"),
			    "tcprobe run --set 'N=[8,16]' 'it'\\''s' '' 'a b'");
	assert_true(matches(tcp_prov_get(&p, "started_utc"),
			    "^20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]Z$"));
	assert_int_equal(gethostname(host, sizeof(host)), 0);
	assert_string_equal(tcp_prov_get(&p, "host"), host);
	assert_int_equal(uname(&u), 0);
	assert_int_equal(strncmp(tcp_prov_get(&p, "os"), u.sysname, strlen(u.sysname)), 0);
	assert_true(atoi(tcp_prov_get(&p, "cpu_count")) >= 1);
	/* no argv: NA, not a crash */
	tcp_prov_collect_host(&p, 0, NULL);
	assert_true(matches(tcp_prov_get(&p, "command_line"), "^NA \\("));
}

/*
 * The GPU part: with no GPU (this build machine) every key is present and
 * NA with CUDA's reason; on a GPU machine ordinal 0 is well formed.  An
 * ordinal past the last GPU is NA everywhere.
 */
static void test_gpu(void **state)
{
	static tcp_prov_t p;
	char why[512] = "", cwhy[512] = "";
	int n = tcp_prov_cuda_device_count(cwhy, sizeof(cwhy));

	(void)state;
	tcp_prov_init(&p);
	int rc = tcp_prov_collect_gpu(&p, 0, why, sizeof(why));
	for (size_t i = 0; i < sizeof(gpu_keys) / sizeof(gpu_keys[0]); i++) {
		const char *v = tcp_prov_get(&p, gpu_keys[i]);
		if (!v || !*v) {
			print_error("gpu key %s missing or empty\n", gpu_keys[i]);
			fail();
		}
	}
	assert_string_equal(tcp_prov_get(&p, "gpu_index"), "0");
	if (n < 0) {
		assert_int_equal(rc, -1);
		assert_true(matches(cwhy, "^no CUDA GPU visible: ."));
		assert_true(matches(why, "^no CUDA GPU visible: ."));
		assert_true(matches(tcp_prov_get(&p, "compute_capability"), "^NA \\(."));
		assert_true(matches(tcp_prov_get(&p, "sm_count"), "^NA \\(."));
		assert_true(matches(tcp_prov_get(&p, "pcie_bus_id"), "^NA \\(."));
	} else {
		assert_int_equal(rc, 0);
		assert_true(matches(tcp_prov_get(&p, "gpu_uuid"),
				    "^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"));
		assert_true(matches(tcp_prov_get(&p, "compute_capability"), "^[0-9]+\\.[0-9]+$"));
		assert_true(atoi(tcp_prov_get(&p, "sm_count")) > 0);
		assert_true(matches(tcp_prov_get(&p, "pcie_bus_id"), "^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.0$"));
		assert_true(matches(tcp_prov_get(&p, "cuda_driver_version"), "^[0-9]+\\.[0-9]+$"));
	}
	tcp_prov_init(&p);
	assert_int_equal(tcp_prov_collect_gpu(&p, 4096, why, sizeof(why)), -1);
	assert_true(matches(tcp_prov_get(&p, "gpu_name"), "^NA \\(."));
	assert_true(matches(tcp_prov_get(&p, "l2_bytes"), "^NA \\(."));
}

static void test_table(void **state)
{
	static tcp_prov_t p, q;
	char key[64], big[3000];

	(void)state;
	tcp_prov_init(&p);
	assert_null(tcp_prov_get(&p, "a"));
	assert_int_equal(tcp_prov_set(&p, "a", "1"), 0);
	assert_int_equal(tcp_prov_set(&p, "b", NULL), 0);
	assert_string_equal(tcp_prov_get(&p, "b"), "NA");
	assert_int_equal(tcp_prov_set(&p, "a", "2"), 0);	/* replaced in place */
	assert_int_equal(p.n, 2);
	assert_string_equal(p.key[0], "a");
	assert_string_equal(tcp_prov_get(&p, "a"), "2");
	assert_int_equal(tcp_prov_setf(&p, "c", "%d-%s", 42, "x"), 0);
	assert_string_equal(tcp_prov_get(&p, "c"), "42-x");
	assert_int_equal(tcp_prov_set(&p, "", "x"), -1);
	memset(key, 'k', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	assert_int_equal(tcp_prov_set(&p, key, "x"), -1);	/* key too long */

	/* a long value is cut and says so */
	memset(big, 'v', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(tcp_prov_set(&p, "long", big), 0);
	const char *v = tcp_prov_get(&p, "long");
	assert_int_equal(strlen(v), TCP_PROV_VALLEN - 1);
	assert_string_equal(v + TCP_PROV_VALLEN - 4, "...");
	assert_int_equal(tcp_prov_setf(&p, "longf", "%s", big), 0);
	assert_string_equal(tcp_prov_get(&p, "longf") + TCP_PROV_VALLEN - 4, "...");

	/* full table */
	tcp_prov_init(&q);
	for (int i = 0; i < TCP_PROV_MAX; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		assert_int_equal(tcp_prov_set(&q, key, "v"), 0);
	}
	assert_int_equal(tcp_prov_set(&q, "one_more", "v"), -1);
	assert_int_equal(tcp_prov_set(&q, "k3", "replaced"), 0);	/* replacing still works */

	/* merge with a prefix */
	tcp_prov_init(&q);
	assert_int_equal(tcp_prov_merge(&q, &p, "gpu1."), 0);
	assert_string_equal(tcp_prov_get(&q, "gpu1.a"), "2");
	assert_int_equal(q.n, p.n);
}

static void test_write_read(void **state)
{
	static tcp_prov_t p, q;
	char path[512], err[512], val[64];

	(void)state;
	tcp_prov_init(&p);
	tcp_prov_collect_host(&p, 0, NULL);
	tcp_prov_set(&p, "awkward", "a,\"b\"\nc");
	snprintf(val, sizeof(val), "%llu", (unsigned long long)next_u64());
	tcp_prov_set(&p, "seed", val);
	snprintf(path, sizeof(path), "%s/provenance.csv", dir);
	assert_int_equal(tcp_prov_write(&p, path, err, sizeof(err)), 0);
	assert_int_equal(tcp_prov_read(&q, path, err, sizeof(err)), 0);
	assert_int_equal(q.n, p.n);
	for (int i = 0; i < p.n; i++) {
		assert_string_equal(q.key[i], p.key[i]);
		assert_string_equal(q.val[i], p.val[i]);
	}
	/* not a provenance file */
	snprintf(path, sizeof(path), "%s/other.csv", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("a,b\n1,2\n", f);
	fclose(f);
	assert_int_equal(tcp_prov_read(&q, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a provenance file"));
}

static void test_dir_name(void **state)
{
	static tcp_prov_t p;
	char base[300], b[600], want[600];

	(void)state;
	snprintf(base, sizeof(base), "%s/results", dir);
	assert_int_equal(mkdir(base, 0755), 0);
	tcp_prov_init(&p);
	tcp_prov_set(&p, "started_utc", "2026-11-29T18:01:02Z");
	tcp_prov_set(&p, "gpu_name", "NVIDIA H200");
	tcp_prov_set(&p, "driver_version", "580.159.04");
	tcp_prov_set(&p, "host", "node-1.example");
	assert_int_equal(tcp_results_dir_name(b, sizeof(b), base, &p), 0);
	snprintf(want, sizeof(want), "%s/2026-11-29-NVIDIA_H200-580.159.04-node-1.example", base);
	assert_string_equal(b, want);
	for (int k = 2; k <= 4; k++) {	/* taken: -2, -3, ... */
		assert_int_equal(mkdir(b, 0755), 0);
		assert_int_equal(tcp_results_dir_name(b, sizeof(b), base, &p), 0);
		snprintf(want, sizeof(want), "%s/2026-11-29-NVIDIA_H200-580.159.04-node-1.example-%d",
			 base, k);
		assert_string_equal(b, want);
	}
	/* hostile and missing parts */
	tcp_prov_set(&p, "gpu_name", "../A  B/\"C\"!");
	tcp_prov_set(&p, "driver_version", "NA (NVML not loadable: x)");
	tcp_prov_set(&p, "host", "");
	assert_int_equal(tcp_results_dir_name(b, sizeof(b), base, &p), 0);
	snprintf(want, sizeof(want), "%s/2026-11-29-A_B_C-nodriver-nohost", base);
	assert_string_equal(b, want);
	/* no date: today's */
	tcp_prov_init(&p);
	assert_int_equal(tcp_results_dir_name(b, sizeof(b), NULL, &p), 0);
	assert_true(matches(b, "^results/20[0-9]{2}-[01][0-9]-[0-3][0-9]-nogpu-nodriver-nohost(-[0-9]+)?$"));
	assert_int_equal(tcp_results_dir_name(b, 10, base, &p), -1);	/* too small */
}

/* `tcprobe info`: exit statuses; stdout silenced. */
static void test_cmd_info(void **state)
{
	char *bad[] = { "info", "--bogus", NULL };
	char *help[] = { "info", "--help", NULL };
	char *plain[] = { "info", NULL };
	char *csv[] = { "info", "--csv", NULL };
	char why[256];
	int n = tcp_prov_cuda_device_count(why, sizeof(why));

	(void)state;
	fflush(stdout);
	int saved = dup(1);
	FILE *devnull = freopen("/dev/null", "w", stdout);
	assert_non_null(devnull);
	int r_bad = tcp_cmd_info(2, bad);
	int r_help = tcp_cmd_info(2, help);
	int r_plain = tcp_cmd_info(1, plain);
	int r_csv = tcp_cmd_info(2, csv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	assert_int_equal(r_bad, 2);
	assert_int_equal(r_help, 0);
	assert_int_equal(r_plain, n < 0 ? 3 : 0);
	assert_int_equal(r_csv, n < 0 ? 3 : 0);
}

static int rm_tree(void **state)
{
	(void)state;
	return test_rm_tree(dir);
}

int main(void)
{
	test_seed("test-provenance");
	if (test_mkdtemp(dir, sizeof(dir), "prov"))
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvml_absent),
		cmocka_unit_test(test_nvml_fake),
		cmocka_unit_test(test_nvml_init_fails),
		cmocka_unit_test(test_throttle_str),
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_gpu),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_write_read),
		cmocka_unit_test(test_dir_name),
		cmocka_unit_test(test_cmd_info),
	};
	return cmocka_run_group_tests(tests, NULL, rm_tree);
}
