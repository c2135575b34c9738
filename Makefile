# weft — plain Makefile. `make` builds the command, the libraries and the
# spec runner into $(BUILD); `make test` runs every test suite.
#   make                                            everyday build (below)
#   make release                                    what ships, into build-release
#   make BUILD=build-asan SAN=address,undefined   sanitizer build
#   make WERROR=1                                   warnings are errors (CI)
#
# Build modes. The everyday build leaves out the interpreter's
# super-instructions (PAIRS=0: the pair handlers are about 3/4 of
# interp.c's compile time) and the spec runner over portable SIMD lanes
# (PORTABLE=0: a second compile of interp.c); both behave the same as what
# ships, only slower or less checked. What ships is PAIRS=1 PORTABLE=1:
# `make release` builds it into build-release, and `make install`,
# `make bench` and CI use it (docs/build.md). Any build directory remembers
# the flags it was built with ($(BUILD)/flags) and rebuilds when they change.

BUILD ?= build
.DEFAULT_GOAL := all
# Every core unless the command line says how many (-jN; -j1 for one job
# at a time): a plain `make` from a clean clone is 44 s on one core of the
# 2-core reference machine and 20 s on both (docs/build.md). Only the
# top-level make decides; a recursive one shares its parent's job slots.
ifeq ($(MAKELEVEL)$(filter -j%,$(MAKEFLAGS)),0)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif
# The version is written once, in include/weft.h; the shared library's
# soname carries its major number.
VERSION := $(shell sed -n 's/^\#define WEFT_VERSION "\(.*\)"/\1/p' include/weft.h)
SONAME := libweft.so.$(firstword $(subst ., ,$(VERSION)))
# make install: PREFIX, DESTDIR (staging) and the usual directories.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
CC ?= cc
OPT ?= -O2 -g
SAN ?=
WERROR ?=
RELEASE_BUILD ?= build-release
ifeq ($(BUILD),$(RELEASE_BUILD))
PAIRS ?= 1
PORTABLE ?= 1
else
PAIRS ?= 0
PORTABLE ?= 0
endif

WARN := -Wall -Wextra -Wshadow -Wundef -Wstrict-prototypes -Wmissing-prototypes
CFLAGS_ALL := -std=c11 -D_GNU_SOURCE -fPIC -fvisibility=hidden -Iinclude $(WARN) $(OPT) \
	$(if $(WERROR),-Werror) $(if $(SAN),-fsanitize=$(SAN) -fno-omit-frame-pointer -fno-sanitize-recover=all) \
	$(if $(filter 1,$(PAIRS)),,-DWEFT_NO_PAIRS=1) \
	$(if $(LIBFUZZER),-fsanitize=fuzzer-no-link) $(EXTRA_CFLAGS)
LDFLAGS_ALL := $(if $(SAN),-fsanitize=$(SAN)) -lpthread -lm $(EXTRA_LDFLAGS)

# Flags for the interpreter loop's file alone (src/exec/interp.c, one
# function of about 1,700 labels): the fuzz build compiles it at -O0,
# because clang with the sanitizers takes over 20 minutes on it at -O1.
INTERP_CFLAGS ?=

# $(BUILD)/flags holds the compiler and flags of the last build there;
# every object depends on it, so a build with other flags rebuilds. It is
# rewritten only when an object is to be built and only when the flags
# differ (make then sees it unchanged, and nothing is rebuilt).
BUILD_FLAGS := $(CC) $(CFLAGS_ALL) | $(INTERP_CFLAGS) | $(LDFLAGS_ALL)
$(BUILD)/flags: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' '$(BUILD_FLAGS)' | cmp -s - $@ || printf '%s\n' '$(BUILD_FLAGS)' >$@
FORCE:

LIB_SRC := $(sort $(wildcard src/base/*.c src/module/*.c src/compile/*.c src/exec/*.c \
	src/runtime/*.c src/wasi/*.c src/threads/*.c src/sched/*.c src/workers/*.c \
	src/capi/*.c src/jit/*.c src/component/*.c src/wasip2/*.c))
CLI_SRC := $(sort $(wildcard src/cli/*.c))
SPEC_SRC := $(sort $(wildcard tests/spectest/*.c))
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
SPEC_OBJ := $(SPEC_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
# Fuzz harnesses (fuzz/README.md): each fuzz/NAME.c is one target, built
# as a plain program over corpus files (fuzz/main.c) into $(BUILD)/fuzz/,
# and with libFuzzer into $(BUILD)/fuzz/libfuzzer/ by `make fuzz-bins` in
# a build whose objects have the coverage hooks (LIBFUZZER=1, clang). So
# one clang build can run both the suites and the fuzzers (.ci/run).
FUZZ_SRC := $(filter-out fuzz/main.c,$(sort $(wildcard fuzz/*.c)))
FUZZ_BIN := $(FUZZ_SRC:fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_LF_BIN := $(FUZZ_SRC:fuzz/%.c=$(BUILD)/fuzz/libfuzzer/%)
# Example hosts (examples/*.c but the guests'; docs/workers.md): plain
# programs on the public API, run by tests/workers/run.sh.
EXAMPLE_SRC := examples/pool.c examples/capi_host.c examples/component_host.c
# examples/uv_host.c runs weft in cooperative mode inside a libuv loop
# (docs/coop.md); built when libuv's headers are there (Debian libuv1-dev;
# .ci/run installs it), and tests/coop/run.sh says so when they are not.
UV_LIBS := $(shell pkg-config --libs libuv 2>/dev/null || { test -f /usr/include/uv.h && echo -luv; })
ifneq ($(UV_LIBS),)
EXAMPLE_SRC += examples/uv_host.c
endif
EXAMPLE_BIN := $(EXAMPLE_SRC:examples/%.c=$(BUILD)/examples/%)
# The wasm.h tests (tests/capi/run.sh): plain programs on wasm.h and
# weft_wasm.h only.
CAPI_TEST_SRC := $(sort $(wildcard tests/capi/*_test.c))
CAPI_TEST_BIN := $(CAPI_TEST_SRC:tests/capi/%.c=$(BUILD)/tests-capi/%)
# The canonical ABI's differential driver (tests/component/cabi_test.c,
# which tests/component/cabi_diff.py runs against definitions.py).
CABI_TEST_BIN := $(BUILD)/tests-component/cabi_test
# Their objects (each program is linked from its own; below).
PROG_OBJ := $(BUILD)/obj/tests/component/cabi_test.o $(UNIT_SRC:%.c=$(BUILD)/obj/%.o) $(FUZZ_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/fuzz/main.o \
	$(BUILD)/obj/fuzz/diff/exec.o $(EXAMPLE_SRC:%.c=$(BUILD)/obj/%.o) $(CAPI_TEST_SRC:%.c=$(BUILD)/obj/%.o) \
	$(BUILD)/obj/tools/disasm.o $(BUILD)/obj/tests/component/runner.o \
	$(BUILD)/obj/tests/component/invoke.o

.PHONY: FORCE all test wit clean bench guests fuzz fuzz-bins install uninstall man release test-release test-jit \
	component-data
all: $(BUILD)/libweft.a $(BUILD)/libweft.so $(BUILD)/weft $(BUILD)/weft-spectest $(BUILD)/weft-component-test \
	$(if $(filter 1,$(PORTABLE)),$(BUILD)/weft-spectest-portable) $(UNIT_BIN) \
	$(BUILD)/weft-disasm $(FUZZ_BIN) $(BUILD)/fuzz/diff-exec $(EXAMPLE_BIN) $(CAPI_TEST_BIN) \
	$(CABI_TEST_BIN)

# What ships: the super-instructions and the portable-lanes spec runner
# (the defaults of a build in $(RELEASE_BUILD)).
release:
	$(MAKE) BUILD=$(RELEASE_BUILD) all
test-release:
	$(MAKE) BUILD=$(RELEASE_BUILD) test

$(BUILD)/obj/%.o: %.c $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(PROG_INC) -MMD -MP -c $< -o $@

# The programs beside the library (unit tests, fuzz harnesses, examples,
# the wasm.h tests, tools) are compiled to objects of their own and linked
# against libweft.a: a change in the library (say src/exec/interp.c)
# relinks them and compiles none of them again. The unit tests, the
# harnesses and the tools see the internal headers; the examples and the
# wasm.h tests only the public ones.
$(BUILD)/obj/tests/unit/%.o $(BUILD)/obj/fuzz/%.o $(BUILD)/obj/tools/%.o \
	$(BUILD)/obj/tests/component/%.o: PROG_INC := -Isrc
$(BUILD)/obj/fuzz/diff/%.o: PROG_INC :=
# Kept (make would delete them as intermediate files of the links).
.SECONDARY: $(PROG_OBJ)

$(BUILD)/obj/src/exec/interp.o: src/exec/interp.c $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(INTERP_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libweft.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libweft.so: $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,$(SONAME) -o $@ $^ $(LDFLAGS_ALL)

$(BUILD)/weft: $(CLI_OBJ) $(BUILD)/libweft.a
	$(CC) -o $@ $(CLI_OBJ) $(BUILD)/libweft.a $(LDFLAGS_ALL)

$(BUILD)/weft-spectest: $(SPEC_OBJ) $(BUILD)/libweft.a
	$(CC) -o $@ $(SPEC_OBJ) $(BUILD)/libweft.a $(LDFLAGS_ALL)

# The component model's spec scripts (tests/component/run.sh): the runner
# reads convert.mjs's JSON with the spec runner's JSON reader.
$(BUILD)/weft-component-test: $(BUILD)/obj/tests/component/runner.o $(BUILD)/obj/tests/component/invoke.o \
		$(BUILD)/obj/tests/spectest/json.o $(BUILD)/libweft.a
	$(CC) -o $@ $^ $(LDFLAGS_ALL)

# Regenerates tests/component/data from ../shared/spec/component-model/test
# with jco's parser (tests/component/convert.mjs; node and /work/tools/jco).
component-data:
	node tests/component/convert.mjs
	node tests/component/convert.mjs tests/component/wast tests/component/data-weft

# The spec runner over the portable C SIMD lanes (src/exec/simd.h with
# WEFT_SIMD_PORTABLE=1): only the interpreter differs, so tests run both.
$(BUILD)/obj/src/exec/interp-portable.o: src/exec/interp.c $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(INTERP_CFLAGS) -DWEFT_SIMD_PORTABLE=1 -MMD -MP -c $< -o $@

$(BUILD)/weft-spectest-portable: $(SPEC_OBJ) $(filter-out $(BUILD)/obj/src/exec/interp.o,$(LIB_OBJ)) \
		$(BUILD)/obj/src/exec/interp-portable.o
	$(CC) -o $@ $^ $(LDFLAGS_ALL)

$(BUILD)/examples/%: $(BUILD)/obj/examples/%.o $(BUILD)/libweft.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $< $(BUILD)/libweft.a $(LDFLAGS_ALL)

$(BUILD)/examples/uv_host: $(BUILD)/obj/examples/uv_host.o $(BUILD)/libweft.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $< $(BUILD)/libweft.a $(UV_LIBS) $(LDFLAGS_ALL)

$(BUILD)/tests-capi/%: $(BUILD)/obj/tests/capi/%.o $(BUILD)/libweft.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $< $(BUILD)/libweft.a $(LDFLAGS_ALL)

$(BUILD)/weft-disasm: $(BUILD)/obj/tools/disasm.o $(BUILD)/libweft.a
	$(CC) -o $@ $< $(BUILD)/libweft.a $(LDFLAGS_ALL)

$(BUILD)/tests-component/%: $(BUILD)/obj/tests/component/%.o $(BUILD)/libweft.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $< $(BUILD)/libweft.a $(LDFLAGS_ALL)

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(BUILD)/libweft.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $< $(BUILD)/libweft.a $(LDFLAGS_ALL)

# A harness as a plain program over corpus files, and under libFuzzer (its
# object has libFuzzer's hooks in a LIBFUZZER=1 build, like every other).
$(BUILD)/fuzz/%: $(BUILD)/obj/fuzz/%.o $(BUILD)/obj/fuzz/main.o $(BUILD)/libweft.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $< $(BUILD)/obj/fuzz/main.o $(BUILD)/libweft.a $(LDFLAGS_ALL)

$(BUILD)/fuzz/libfuzzer/%: $(BUILD)/obj/fuzz/%.o $(BUILD)/libweft.a
	@mkdir -p $(dir $@)
	$(if $(LIBFUZZER),,$(error libFuzzer harnesses need LIBFUZZER=1 (make fuzz)))
	$(CC) -o $@ $< -fsanitize=fuzzer $(BUILD)/libweft.a $(LDFLAGS_ALL)

fuzz-bins: $(FUZZ_LF_BIN)

# The weft side of the differential fuzzer (fuzz/diff/run): a plain
# program on the public API only.
$(BUILD)/fuzz/diff-exec: $(BUILD)/obj/fuzz/diff/exec.o $(BUILD)/libweft.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $< $(BUILD)/libweft.a $(LDFLAGS_ALL)

# Runs every harness (or FUZZ_TARGETS) under libFuzzer with ASan+UBSan for
# FUZZ_TIME seconds each, one per CPU at a time (FUZZ_JOBS; findings land
# in $(FUZZ_BUILD)/crashes), then the
# differential fuzzer against node for FUZZ_TIME seconds on $(BUILD), with
# a seed from the clock that it prints (findings in $(BUILD)/diff-findings);
# its current mix needs node 24 and binaryen 132 from npm
# (fuzz/diff/package.json), installed here when missing or older than
# package-lock.json (without them it makes the old mix: fuzz/diff/run).
# The harnesses run the shipped handlers (PAIRS=1); the interpreter's file
# is compiled at -O0 there (INTERP_CFLAGS above), so it runs fewer
# executions per second than the rest would allow. FUZZ_BUILD may be a
# build made with those same flags (and more targets): CI fuzzes from its
# ASan build, so nothing is compiled twice.
FUZZ_BUILD ?= build-fuzz
FUZZ_TIME ?= 60
FUZZ_TARGETS ?=
# The interpreter's file also goes without libFuzzer's comparison hooks
# (trace-cmp): they made every handler's compare a call, the suites on
# that build 2 to 3 times slower, and guide the search little there (the
# parsers and the compiler keep them).
FUZZ_INTERP_CFLAGS := -O0 -fno-sanitize-coverage=trace-cmp
fuzz: $(BUILD)/fuzz/diff-exec
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=clang SAN=address,undefined LIBFUZZER=1 PAIRS=1 \
		INTERP_CFLAGS="$(FUZZ_INTERP_CFLAGS)" fuzz-bins
	bash fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_TIME) $(FUZZ_TARGETS)
	[ fuzz/diff/node_modules/.package-lock.json -nt fuzz/diff/package-lock.json ] || \
		npm ci --prefix fuzz/diff --no-audit --no-fund || \
		echo "fuzz/diff: npm ci failed; the differential fuzzer makes the old mix"
	seed=$$(date +%s); echo "== differential fuzzing, seed $$seed"; \
		bash fuzz/diff/run -n 1000000 -t $(FUZZ_TIME) -s $$seed $(BUILD)

# Runs every suite; each prints "N passed, N failed" and tests/run.sh adds
# them up into the last line.
test: all
	bash tests/run.sh $(BUILD)

# The WASI 0.2 hosts' type tables, made from the WIT (tools/witgen.py);
# tests/witgen checks that the committed ones are what it makes now.
wit:
	python3 tools/witgen.py

# The same suites with every function compiled on its first call
# (docs/jit.md, "Forced-jit suites").
test-jit: all
	WEFT_TIER=jit bash tests/run.sh $(BUILD)

# The benchmark suite and C API micro-benchmarks on what ships (make
# release; RELEASE_BUILD=DIR for another directory) (bench/README.md);
# BENCH_ARGS go to the runner: make bench BENCH_ARGS=--attention
bench: release
	WEFT=$(abspath $(RELEASE_BUILD))/weft bench/run $(BENCH_ARGS)

# Rebuilds the committed guest programs (.wasm) from their sources; needs
# clang with wasi-libc and wabt.
guests:
	$(MAKE) -C tests guests

# Installs the command, both libraries (libweft.so.VERSION with its soname
# link and the development link), the header, weft.pc and the man page:
# what ships (make release) unless BUILD is given on the command line.
ifeq ($(origin BUILD),command line)
# As built: installing never rebuilds a given directory with other flags.
INSTALL_BUILD := $(BUILD)
INSTALL_DEPS :=
else
INSTALL_BUILD := $(RELEASE_BUILD)
INSTALL_DEPS := release
endif
install: $(INSTALL_DEPS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(INSTALL_BUILD)/weft $(DESTDIR)$(BINDIR)/weft
	install -m 644 $(INSTALL_BUILD)/libweft.a $(DESTDIR)$(LIBDIR)/libweft.a
	install -m 755 $(INSTALL_BUILD)/libweft.so $(DESTDIR)$(LIBDIR)/libweft.so.$(VERSION)
	ln -sf libweft.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libweft.so
	install -m 644 include/weft.h $(DESTDIR)$(INCLUDEDIR)/weft.h
	install -m 644 include/wasm.h $(DESTDIR)$(INCLUDEDIR)/wasm.h
	install -m 644 include/weft_wasm.h $(DESTDIR)$(INCLUDEDIR)/weft_wasm.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
		weft.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/weft.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/weft.pc
	install -m 644 docs/weft.1 $(DESTDIR)$(MANDIR)/man1/weft.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/weft $(DESTDIR)$(LIBDIR)/libweft.a \
		$(DESTDIR)$(LIBDIR)/libweft.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME) \
		$(DESTDIR)$(LIBDIR)/libweft.so $(DESTDIR)$(INCLUDEDIR)/weft.h \
		$(DESTDIR)$(INCLUDEDIR)/wasm.h $(DESTDIR)$(INCLUDEDIR)/weft_wasm.h \
		$(DESTDIR)$(PKGCONFIGDIR)/weft.pc $(DESTDIR)$(MANDIR)/man1/weft.1

# The man page is generated from the command's options table
# (src/cli/options.c), which also prints --help; the output is committed.
man: $(BUILD)/weft
	$(BUILD)/weft --help-man >docs/weft.1

clean:
	rm -rf $(BUILD)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(SPEC_OBJ:.o=.d) $(BUILD)/obj/src/exec/interp-portable.d \
	$(PROG_OBJ:.o=.d)
