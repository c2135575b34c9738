# weft — plain Makefile. `make` builds the command, the libraries and the
# spec runner into $(BUILD); `make test` runs every test suite.
#   make BUILD=build-asan SAN=address,undefined   sanitizer build
#   make WERROR=1                                   warnings are errors (CI)

BUILD ?= build
CC ?= cc
OPT ?= -O2 -g
SAN ?=
WERROR ?=

WARN := -Wall -Wextra -Wshadow -Wundef -Wstrict-prototypes -Wmissing-prototypes
CFLAGS_ALL := -std=c11 -D_GNU_SOURCE -fPIC -fvisibility=hidden -Iinclude $(WARN) $(OPT) \
	$(if $(WERROR),-Werror) $(if $(SAN),-fsanitize=$(SAN) -fno-omit-frame-pointer -fno-sanitize-recover=all) \
	$(if $(LIBFUZZER),-fsanitize=fuzzer-no-link) $(EXTRA_CFLAGS)
LDFLAGS_ALL := $(if $(SAN),-fsanitize=$(SAN)) -lpthread -lm $(EXTRA_LDFLAGS)

LIB_SRC := $(sort $(wildcard src/base/*.c src/module/*.c src/compile/*.c src/exec/*.c \
	src/runtime/*.c src/wasi/*.c src/threads/*.c src/sched/*.c))
CLI_SRC := $(sort $(wildcard src/cli/*.c))
SPEC_SRC := $(sort $(wildcard tests/spectest/*.c))
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
SPEC_OBJ := $(SPEC_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
# Fuzz harnesses (fuzz/README.md): each fuzz/NAME.c is one target. Built
# as plain programs over corpus files (fuzz/main.c) by default, with
# libFuzzer when LIBFUZZER=1 (clang; `make fuzz` does that).
FUZZ_SRC := $(filter-out fuzz/main.c,$(sort $(wildcard fuzz/*.c)))
FUZZ_BIN := $(FUZZ_SRC:fuzz/%.c=$(BUILD)/fuzz/%)

.PHONY: all test clean bench guests fuzz fuzz-bins
all: $(BUILD)/libweft.a $(BUILD)/libweft.so $(BUILD)/weft $(BUILD)/weft-spectest $(UNIT_BIN) \
	$(BUILD)/weft-disasm $(FUZZ_BIN) $(BUILD)/fuzz/diff-exec

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/libweft.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libweft.so: $(LIB_OBJ)
	$(CC) -shared -o $@ $^ $(LDFLAGS_ALL)

$(BUILD)/weft: $(CLI_OBJ) $(BUILD)/libweft.a
	$(CC) -o $@ $(CLI_OBJ) $(BUILD)/libweft.a $(LDFLAGS_ALL)

$(BUILD)/weft-spectest: $(SPEC_OBJ) $(BUILD)/libweft.a
	$(CC) -o $@ $(SPEC_OBJ) $(BUILD)/libweft.a $(LDFLAGS_ALL)

# Developer tools see the internal headers.
$(BUILD)/weft-disasm: tools/disasm.c $(BUILD)/libweft.a
	$(CC) $(CFLAGS_ALL) -Isrc -o $@ $< $(BUILD)/libweft.a $(LDFLAGS_ALL)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libweft.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Isrc -o $@ $< $(BUILD)/libweft.a $(LDFLAGS_ALL)

# Harnesses see the internal headers too (the WASI one calls host functions
# directly).
$(BUILD)/fuzz/%: fuzz/%.c fuzz/main.c $(BUILD)/libweft.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Isrc -o $@ $< $(if $(LIBFUZZER),-fsanitize=fuzzer,fuzz/main.c) \
		$(BUILD)/libweft.a $(LDFLAGS_ALL)

fuzz-bins: $(FUZZ_BIN)

# The weft side of the differential fuzzer (fuzz/diff/run): a plain
# program on the public API only.
$(BUILD)/fuzz/diff-exec: fuzz/diff/exec.c $(BUILD)/libweft.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(BUILD)/libweft.a $(LDFLAGS_ALL)

# Runs every harness (or FUZZ_TARGETS) under libFuzzer with ASan+UBSan for
# FUZZ_TIME seconds each (findings land in $(FUZZ_BUILD)/crashes), then the
# differential fuzzer against node for FUZZ_TIME seconds on $(BUILD), with
# a seed from the clock that it prints (findings in $(BUILD)/diff-findings).
FUZZ_BUILD ?= build-fuzz
FUZZ_TIME ?= 60
FUZZ_TARGETS ?=
fuzz: $(BUILD)/fuzz/diff-exec
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=clang SAN=address,undefined LIBFUZZER=1 fuzz-bins
	bash fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_TIME) $(FUZZ_TARGETS)
	seed=$$(date +%s); echo "== differential fuzzing, seed $$seed"; \
		bash fuzz/diff/run -n 1000000 -t $(FUZZ_TIME) -s $$seed $(BUILD)

# Runs every suite; each prints "N passed, N failed" and tests/run.sh adds
# them up into the last line.
test: all
	bash tests/run.sh $(BUILD)

# The benchmark suite and C API micro-benchmarks on this build (bench/README.md);
# BENCH_ARGS go to the runner: make bench BENCH_ARGS=--attention
bench: all
	WEFT=$(abspath $(BUILD))/weft bench/run $(BENCH_ARGS)

# Rebuilds the committed guest programs (.wasm) from their sources; needs
# clang with wasi-libc and wabt.
guests:
	$(MAKE) -C tests guests

clean:
	rm -rf $(BUILD)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(SPEC_OBJ:.o=.d)
