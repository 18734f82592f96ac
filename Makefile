# receipts: every target wraps the real command it names.
SWIFT     ?= swift
DEV_SET   ?= ../shared/data/sroie-dev
WILD_SET  ?= ../shared/data/wild-dev
STREAM_SET ?= ../shared/data/sroie-stream
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
RELEASE_BIN = .build/release/receipts
BIN       ?= $(RELEASE_BIN)
# What a fresh Debian/Ubuntu machine lacks: Tesseract + Leptonica (headers and the
# English and orientation models), SQLite, libheif (HEIC/AVIF photos), Poppler (PDF), pkg-config;
# libpng and libjpeg headers (CDecoderMessages keeps their messages off stderr); hledger (the test that
# reads the exported journal); libpq (PostgreSQL stores) and the PostgreSQL server the store tests run against;
# mandoc and man-db (the man page is linted and shown), zsh and fish (the completion scripts are loaded in each).
DEB_PACKAGES = libtesseract-dev libleptonica-dev tesseract-ocr-eng tesseract-ocr-osd libsqlite3-dev libheif-dev libpoppler-glib-dev pkg-config libpng-dev libjpeg-dev hledger libpq-dev postgresql mandoc man-db zsh fish
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup build test run eval bench fuzz fuzz-short model model-setup clean help install uninstall embed

help:
	@echo "make setup   install the Debian packages that are missing (apt-get)"
	@echo "make build   build the release binary ($(BIN))"
	@echo "make run     setup + build, then parse every receipt in SampleReceipts/"
	@echo "make test    setup, then swift test (includes the OCR regression on SampleReceipts/; store tests on SQLite and a throw-away PostgreSQL)"
	@echo "make eval    accuracy on the dev sets ($(DEV_SET), $(WILD_SET)): parser alone, then end to end"
	@echo "make bench   benchmarks that print figures (batch vs bare tesseract in ROUNDS rounds, default 3; reconcile, parser cost)"
	@echo "make fuzz    libFuzzer + AddressSanitizer on every fuzz target, FUZZ_SECONDS (60) each; prints inputs, crashes, timeouts, peak memory"
	@echo "make model   rebuild the receipt line model from $(STREAM_SET) and rendered lines (Model/README.md), then judge it line by line"
	@echo "make install    build, then install into PREFIX ($(PREFIX)) under DESTDIR: the binary, the receipt model, the man page, bash/zsh/fish completion"
	@echo "make uninstall  remove every file make install wrote (same PREFIX and DESTDIR)"
	@echo "make embed   build and run Examples/embed, an app that depends on the ReceiptKit library alone"

# Installs only what is missing, so it is quick and quiet on a ready machine.
setup:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	else echo "setup: system packages present"; fi

build: setup
	$(SWIFT) build -c release --product receipts

run: build
	$(BIN) parse SampleReceipts/*.png SampleReceipts/*.jpg SampleReceipts/*.heic SampleReceipts/*.pdf

# The store tests run on SQLite and on PostgreSQL: unless RECEIPTS_TEST_POSTGRES names a server,
# a throw-away cluster is started in $(PG_TEST_DIR) (scripts/pg-test-cluster) and stopped after.
PG_TEST_DIR ?= .build-pg-test
test: setup
	@set -e; \
	if [ -z "$$RECEIPTS_TEST_POSTGRES" ]; then \
		url=$$(scripts/pg-test-cluster start $(PG_TEST_DIR)); \
		trap 'scripts/pg-test-cluster stop $(PG_TEST_DIR)' EXIT; \
		echo "PostgreSQL for the store tests: $$url"; \
		export RECEIPTS_TEST_POSTGRES="$$url"; \
	fi; \
	OMP_THREAD_LIMIT=1 $(SWIFT) test
	$(MAKE) fuzz-short
	$(MAKE) embed

# An app on the library alone (Examples/embed, a package of its own that depends on this one by path):
# built, checked not to have built the command line, and run on a sample.
EMBED = Examples/embed/.build/debug
embed: setup
	$(SWIFT) build --package-path Examples/embed --product embed
	@if [ -e $(EMBED)/Modules/ReceiptsCLI.swiftmodule ]; then echo "Examples/embed built ReceiptsCLI: ReceiptKit must not hold it"; exit 1; fi
	OMP_THREAD_LIMIT=1 $(EMBED)/embed SampleReceipts/us-hardware-01.png > .build/embed.json
	cat .build/embed.json
	grep -q '"value" : "55.84"' .build/embed.json

# Fuzzing: image bytes -> ingest, text/OCR pages -> parser, inventory files -> import, --rules and
# --vendors files -> their loaders (scripts/fuzz.sh). `make test` runs a few seconds of each.
FUZZ_SECONDS ?= 60
fuzz: setup
	SECONDS_EACH=$(FUZZ_SECONDS) bash scripts/fuzz.sh

# From the seeds alone, so it stays a few seconds a target however much `make fuzz` has found;
# a fixed seed and input count, so every machine tries the same inputs (at most 20 s a target).
fuzz-short:
	rm -rf .build-fuzz-work/short
	CORPUS_ROOT=.build-fuzz-work/short SECONDS_EACH=20 SEED=1 RUNS_EACH=1000 bash scripts/fuzz.sh

eval: build
	@# the reader alone: each true line read by itself (character error, lines, amounts, dates exact)
	$(BIN) eval --lines --jobs $(JOBS) $(DEV_SET) || [ $$? -eq 3 ]
	$(BIN) eval --lines --jobs $(JOBS) --spaceless $(WILD_SET) || [ $$? -eq 3 ]
	$(BIN) eval --truth-text $(DEV_SET)
	@# exit 3: some scans could not be read (the dev set has one corrupt JPEG); they count as misses, score anyway
	$(BIN) eval --jobs $(JOBS) --predictions .build/dev-predictions.jsonl $(DEV_SET) || [ $$? -eq 3 ]
	python3 ../shared/tools/score.py $(DEV_SET)/key .build/dev-predictions.jsonl
	@# the phone photos: vendors compared without spaces, ambiguous all-digit dates either way (see ../shared/data/README.md)
	$(BIN) eval --truth-text --spaceless --month-first --either-order $(WILD_SET)
	$(BIN) eval --jobs $(JOBS) --spaceless --month-first --either-order --predictions .build/wild-predictions.jsonl $(WILD_SET) || [ $$? -eq 3 ]
	python3 ../shared/tools/score.py $(WILD_SET)/key .build/wild-predictions.jsonl --spaceless --month-first --either-order
	@# subtotal, tax, time and line items (only the photos' keys label them): eval printed them above; the reference
	@# scorer reads them from a store that batch writes over the same photos
	rm -f .build/wild-extras.sqlite
	$(BIN) batch --jobs $(JOBS) --quiet --store .build/wild-extras.sqlite $(WILD_SET)/img || [ $$? -eq 3 ]
	python3 ../shared/tools/extras.py .build/wild-extras.sqlite $(WILD_SET)/key

bench: build
	bash scripts/bench.sh

# The receipt line model (Model/README.md): line crops of the training stream with their case repaired,
# lines the project renders in true case, both as .lstmf; Debian's integer eng rebuilt as a float start;
# lstmtraining on one core (resumable: run again to continue); then the reader judged line by line on
# the dev sets, the model made here beside the committed one. Writes .build-model/ only: copy
# .build-model/finetune/receipt/tessdata/receipt.traineddata to Model/ on purpose.
MODEL_WORK       ?= .build-model
MODEL_ITERATIONS ?= 80000
MODEL_FONTS = fonts-dejavu-core fonts-dejavu-extra fonts-liberation fonts-liberation2 fonts-freefont-ttf fonts-inconsolata \
	fonts-noto-mono fonts-hack fonts-courier-prime fonts-firacode fonts-roboto-unhinted fonts-croscore fonts-open-sans \
	fonts-jetbrains-mono fonts-anonymous-pro fonts-go fonts-3270 fonts-league-mono fonts-b612 fonts-mononoki \
	fonts-dotgothic16 fonts-terminus-otb
model-setup: setup
	@missing=$$(for p in tesseract-ocr $(MODEL_FONTS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "installing:" $$missing; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi
	@python3 -c 'import numpy, PIL' 2>/dev/null || python3 -m pip install -q numpy Pillow

model: model-setup build
	OMP_THREAD_LIMIT=1 python3 Model/train/stream_lines.py --data $(STREAM_SET) --out $(MODEL_WORK)/lines
	OMP_THREAD_LIMIT=1 python3 Model/train/render_lines.py --out $(MODEL_WORK)/lines
	OMP_THREAD_LIMIT=1 python3 Model/train/make_lstmf.py --lines $(MODEL_WORK)/lines
	mkdir -p $(MODEL_WORK)/start
	python3 Model/train/int2float.py /usr/share/tesseract-ocr/5/tessdata/eng.traineddata $(MODEL_WORK)/start/eng_float.lstm
	WORK=$(MODEL_WORK)/finetune/receipt Model/train/finetune.sh $(MODEL_WORK)/start/eng_float.lstm \
		/usr/share/tesseract-ocr/5/tessdata/eng.traineddata $(MODEL_WORK)/lines/train.txt $(MODEL_WORK)/lines/stream-eval.txt \
		$(MODEL_ITERATIONS) receipt
	@echo "== the model made now, line by line on the dev sets"
	$(BIN) eval --lines --jobs $(JOBS) --tessdata $(MODEL_WORK)/finetune/receipt/tessdata --model receipt $(DEV_SET) || [ $$? -eq 3 ]
	$(BIN) eval --lines --jobs $(JOBS) --spaceless --tessdata $(MODEL_WORK)/finetune/receipt/tessdata --model receipt $(WILD_SET) || [ $$? -eq 3 ]
	@echo "== the committed model (Model/receipt.traineddata)"
	$(BIN) eval --lines --jobs $(JOBS) --tessdata Model --model receipt $(DEV_SET) || [ $$? -eq 3 ]
	$(BIN) eval --lines --jobs $(JOBS) --spaceless --tessdata Model --model receipt $(WILD_SET) || [ $$? -eq 3 ]
# Installing: PREFIX (default /usr/local) and DESTDIR as usual. The binary finds the receipt model in
# ../share/receipts beside its bin/ (Tessdata.candidates), so nothing points back into this tree; it is
# stripped (install -s), which also drops the debug information that names the tree's files.
# The man page and the completion scripts are made by the binary itself from its option declarations.
PREFIX  ?= /usr/local
BINDIR   = $(PREFIX)/bin
DATADIR  = $(PREFIX)/share/receipts
MANDIR   = $(PREFIX)/share/man/man1
BASHDIR  = $(PREFIX)/share/bash-completion/completions
# Debian's zsh reads packages' completions from /usr/share/zsh/vendor-completions, and the rest from
# /usr/local/share/zsh/site-functions.
ZSHDIR  ?= $(if $(filter /usr,$(PREFIX)),$(PREFIX)/share/zsh/vendor-completions,$(PREFIX)/share/zsh/site-functions)
FISHDIR  = $(PREFIX)/share/fish/vendor_completions.d
# The receipt line model, installed when the tree has it (Model/README.md says how it is made).
MODEL   ?= Model/receipt.traineddata
# Everything make install writes, so make uninstall removes exactly that.
INSTALLED = $(BINDIR)/receipts $(DATADIR)/receipt.traineddata $(MANDIR)/receipts.1 \
            $(BASHDIR)/receipts $(ZSHDIR)/_receipts $(FISHDIR)/receipts.fish
# The generated files are made in an empty environment: a user's settings are not the package's.
GENERATE = env -i $(BIN)

# `make install BIN=.build/debug/receipts` installs a binary built otherwise, without building (the tests do).
install: $(if $(filter $(RELEASE_BIN),$(BIN)),build)
	@test -x "$(BIN)" || { echo "no $(BIN): build it first"; exit 1; }
	install -D -s -m 755 "$(BIN)" "$(DESTDIR)$(BINDIR)/receipts"
	@if [ -f "$(MODEL)" ]; then \
		echo install -D -m 644 "$(MODEL)" "$(DESTDIR)$(DATADIR)/receipt.traineddata"; \
		install -D -m 644 "$(MODEL)" "$(DESTDIR)$(DATADIR)/receipt.traineddata"; \
	else echo "note: no $(MODEL), so no receipt model is installed (--model eng and the other Tesseract models work)"; fi
	mkdir -p .build/install
	$(GENERATE) man > .build/install/receipts.1
	$(GENERATE) completion bash > .build/install/receipts.bash
	$(GENERATE) completion zsh > .build/install/_receipts
	$(GENERATE) completion fish > .build/install/receipts.fish
	install -D -m 644 .build/install/receipts.1 "$(DESTDIR)$(MANDIR)/receipts.1"
	install -D -m 644 .build/install/receipts.bash "$(DESTDIR)$(BASHDIR)/receipts"
	install -D -m 644 .build/install/_receipts "$(DESTDIR)$(ZSHDIR)/_receipts"
	install -D -m 644 .build/install/receipts.fish "$(DESTDIR)$(FISHDIR)/receipts.fish"

uninstall:
	rm -f $(foreach f,$(INSTALLED),"$(DESTDIR)$(f)")
	@rmdir "$(DESTDIR)$(DATADIR)" 2>/dev/null || true

clean:
	rm -rf .build
