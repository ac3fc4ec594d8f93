# tablesmith — the two set-up commands are `make tables` and `make test`.
GO      ?= go
BIN     := bin/tablesmith
DATA    := data
WORKERS ?= 2
# Packages with concurrent code, tested again under the race detector.
RACE_PKGS := ./builder/ ./format/ ./tables/ ./cmd/tablesmith/

.PHONY: all build tables test test-long bench fuzz vet fmt clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/tablesmith

# The default tables: the 8-puzzle under every index scheme and both goals, and the
# Towers of Hanoi with 3 and 4 pegs. One summary line per table.
tables: build
	@mkdir -p $(DATA)
	$(BIN) build eight --index lex          --workers $(WORKERS) -o $(DATA)/eight-lex.tsm
	$(BIN) build eight --index lex-half     --workers $(WORKERS) -o $(DATA)/eight-lex-half.tsm
	$(BIN) build eight --index mr           --workers $(WORKERS) -o $(DATA)/eight-mr.tsm
	$(BIN) build eight --index branch767359 --workers $(WORKERS) -o $(DATA)/eight-branch767359.tsm
	$(BIN) build eight --index lex-half --goal blank-first --workers $(WORKERS) -o $(DATA)/eight-blank-first.tsm
	$(BIN) build hanoi --pegs 3 --disks 12  --workers $(WORKERS) -o $(DATA)/hanoi-3x12.tsm
	$(BIN) build hanoi --pegs 4 --disks 10  --workers $(WORKERS) -o $(DATA)/hanoi-4x10.tsm

test:
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -short -race $(RACE_PKGS)

# Long checks (large Hanoi instances, random 20-disk states): build tag `long`.
test-long:
	$(GO) test -count=1 -tags long -timeout 60m ./...

bench: build
	@mkdir -p bench
	$(GO) test -run '^$$' -bench . -benchtime 1s ./index/ ./format/ ./benchmarks/ ./games/... | tee bench/go-bench.txt
	$(BIN) bench --workers $(WORKERS) | tee bench/schemes.txt

# A short run of every fuzz target.
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 30s ./games/slide/
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 30s ./games/hanoi/
	$(GO) test -run '^$$' -fuzz FuzzOpen  -fuzztime 60s ./format/

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt would change the files above"; exit 1; }

clean:
	rm -rf bin $(DATA)
