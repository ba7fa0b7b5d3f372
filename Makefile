# Thin wrapper around CMake presets. `make run` and `make test` install missing Debian packages first.
PRESET ?= release
BUILD_DIR := build/$(PRESET)
EXAMPLE ?= resources/examples/kws_dscnn.tvmscript.py

.PHONY: all deps configure build run test test-sanitize bench format tidy clean

all: build

deps:
	./scripts/install-deps.sh

configure: deps
	@if [ ! -f $(BUILD_DIR)/build.ninja ]; then cmake --preset $(PRESET); fi

build: configure
	cmake --build --preset $(PRESET)

run: build
	$(BUILD_DIR)/app/usmp-explorer $(EXAMPLE)

test: build
	ctest --preset $(PRESET)

test-sanitize:
	$(MAKE) test PRESET=sanitize

bench: build
	$(BUILD_DIR)/bench/usmpx_bench_planners --csv $(BUILD_DIR)/planners_bench.csv
	$(BUILD_DIR)/bench/usmpx_bench_mlf_load
	$(BUILD_DIR)/bench/usmpx_bench_check --minimize
	$(BUILD_DIR)/bench/usmpx_bench_model_shaped
	$(BUILD_DIR)/bench/usmpx_bench_cancellation
	$(BUILD_DIR)/bench/usmpx_bench_reserved_bounds

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

tidy: configure
	clang-tidy -p $(BUILD_DIR) $$(git ls-files 'core/*.cpp' 'app/*.cpp' 'views/*.cpp')

clean:
	rm -rf build
