# SPDX-License-Identifier: GPL-2.0
#
# rtla fairsrv: the tool, its tests, the guest kernel and image.
#
#   make deps      install the Debian packages everything needs (root)
#   make           build the tool and the test probes into build/
#   make demo      build all, boot the guest, run a starvation scenario and
#                  print rtla fairsrv hist (the README's first command)
#   make check     run every test; ends with "N passed, N failed"
#   make check-debug  the guest tests on the debug kernel (lockdep, KASAN)
#   make check-rt  the guest tests on the series with PREEMPT_RT
#   make check-7.3  the stock-kernel tests on Debian's stock 7.3 (trixie-backports),
#                  and the proposed fixes' tests on 7.3 with kernel/upstream/
#   make fuzz      fuzz the option and value parsers (FUZZ_SECONDS each)
#   make kernel    build (or reuse) the patched guest kernel
#   make image     build (or reuse) the guest root disk
#   make checkpatch  checkpatch --strict on the kernel series
#   make man       build the man pages
#   make install   install rtla-fairsrv (and rtla if there is none), the man pages
#   make deb       the Debian package (tool, man pages, service): build/deb/
#   make bench     run the benchmarks
#   make campaign  scenarios drawn from seeds, every figure against its
#                  oracle: SEED=n replays one, N=200 runs seeds 1..200;
#                  FLAVOR=pristine on the stock kernel (kprobe source)

CC		?= gcc
CLANG		?= clang
PKG_CONFIG	?= pkg-config
PREFIX		?= /usr/local
DESTDIR		?=
B		:= build

WARN		:= -Wall -Wextra -Werror
CFLAGS		?= -O2 -g
# Deferred (=): read when a recipe runs, after make deps installed them.
TRACE_CFLAGS	= $(shell $(PKG_CONFIG) --cflags libtracefs libtraceevent libbpf 2>/dev/null)
TRACE_LIBS	= $(shell $(PKG_CONFIG) --libs libtracefs libtraceevent libbpf 2>/dev/null)
ALL_CFLAGS	:= -std=gnu11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -Ilib
ASAN_CFLAGS	:= -std=gnu11 -D_GNU_SOURCE $(WARN) -O1 -g \
		   -fsanitize=address,undefined -fno-omit-frame-pointer -Ilib

LIB_SRCS	:= $(wildcard lib/*.c)
TOOL_SRCS	:= $(wildcard rtla-fairsrv/*.c)
HDRS		:= $(wildcard lib/*.h rtla-fairsrv/*.h tests/unit/*.h)

# The BPF source, where clang and bpftool are (make deps installs both):
# its programs, compiled for BPF, and their skeleton, which source-bpf.c
# includes. Without them, or with NO_BPF=1, the tool is built without it
# and --version says so. BPF_PROG() and BPF_KPROBE() name a context
# their bodies may not use.
BPFTOOL		?= $(firstword $(wildcard /usr/sbin/bpftool /usr/bin/bpftool) bpftool)
BPF_ARCH	:= $(patsubst x86_64,x86,$(patsubst aarch64,arm64,$(shell uname -m)))
HAVE_BPF	:= $(if $(NO_BPF),,$(shell command -v $(CLANG) >/dev/null 2>&1 && \
		   command -v $(BPFTOOL) >/dev/null 2>&1 && echo y))
ifeq ($(HAVE_BPF),y)
BPF_SKEL	:= $(B)/bpf/fairsrv.skel.h
BPF_CFLAGS	:= -DFS_HAVE_BPF -I$(B)/bpf
else
BPF_SKEL	:=
BPF_CFLAGS	:=
TOOL_SRCS	:= $(filter-out rtla-fairsrv/source-bpf.c,$(TOOL_SRCS))
endif
UNIT_SRCS	:= $(wildcard tests/unit/test-*.c)
UNIT_BINS	:= $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRCS))
VG_BINS		:= $(patsubst tests/unit/%.c,$(B)/valgrind/%,$(UNIT_SRCS))
MAN_SRCS	:= $(wildcard man/rtla-fairsrv*.rst)
MAN_PAGES	:= $(patsubst man/%.rst,$(B)/man/%.8,$(MAN_SRCS))

# Packages for the host (build, lab, tests). The guest's are in image/build.sh.
DEPS		:= git gcc make pkg-config libtracefs-dev libtraceevent-dev libbpf-dev \
		   python3-docutils flex bison bc libelf-dev \
		   libssl-dev cpio xz-utils qemu-system-x86 qemu-utils \
		   debootstrap e2fsprogs valgrind clang libclang-rt-14-dev \
		   dwarves debhelper build-essential bpftool

.PHONY: all deps kernel image demo check check-debug check-rt check-7.3 checkpatch unit fuzz man install install-service deb bench campaign clean

all: $(B)/bin/rtla $(B)/bin/rtla-fairsrv $(B)/bin/fair-probe $(B)/bin/rt-probe \
     $(B)/bin/rusage $(B)/bin/wake-pair $(B)/bin/core-cookie $(B)/bin/pingpong \
     $(B)/bin/decode-check $(B)/bin/campaign-gen $(B)/bin/campaign-replay

$(B)/bin/rtla: $(LIB_SRCS) $(TOOL_SRCS) $(HDRS) $(BPF_SKEL)
	@mkdir -p $(@D)
	@if [ -z "$(TRACE_LIBS)" ]; then \
		echo "libtracefs/libtraceevent not found by pkg-config: run 'make deps' as root" >&2; \
		exit 1; fi
	$(CC) $(ALL_CFLAGS) $(TRACE_CFLAGS) $(BPF_CFLAGS) -Irtla-fairsrv -pthread $(LDFLAGS) -o $@ \
		$(LIB_SRCS) $(TOOL_SRCS) $(TRACE_LIBS)

$(B)/bpf/fairsrv.bpf.o: rtla-fairsrv/bpf/fairsrv.bpf.c $(wildcard rtla-fairsrv/bpf/*.h) lib/kderive.h lib/series.h
	@mkdir -p $(@D)
	$(CLANG) -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(BPF_ARCH) \
		-I/usr/include/$(shell $(CC) -dumpmachine) -Ilib $(WARN) \
		-Wno-unused-parameter -c -o $@ $<

$(B)/bpf/fairsrv.skel.h: $(B)/bpf/fairsrv.bpf.o
	$(BPFTOOL) gen skeleton $< name fairsrv_bpf > $@.tmp
	mv $@.tmp $@

# The tool with ASan, LeakSanitizer and UBSan, for the guest test
# 14-sanitizers; the runtimes are linked in, the guest has none.
$(B)/asan/rtla: $(LIB_SRCS) $(TOOL_SRCS) $(HDRS) $(BPF_SKEL)
	@mkdir -p $(@D)
	$(CC) $(ASAN_CFLAGS) -static-libasan -static-libubsan -pthread $(TRACE_CFLAGS) $(BPF_CFLAGS) \
		-Irtla-fairsrv -o $@ $(LIB_SRCS) $(TOOL_SRCS) $(TRACE_LIBS)

$(B)/bin/rtla-fairsrv: $(B)/bin/rtla
	ln -f $< $@

$(B)/bin/fair-probe: tests/probe/probe.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -pthread -DPROBE_POLICY_FAIR -o $@ $<

$(B)/bin/rt-probe: tests/probe/probe.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -pthread -DPROBE_POLICY_RT -o $@ $<

$(B)/bin/wake-pair: tests/probe/wake-pair.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -pthread -o $@ $<

$(B)/bin/core-cookie: tests/probe/core-cookie.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $<

$(B)/bin/pingpong: tests/bench/pingpong.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -pthread -o $@ $<

# The tool's decoding against libtraceevent's, in the guest (test 06).
# The session and every source (a new source-*.c is picked up here).
SOURCE_SRCS	:= rtla-fairsrv/session.c rtla-fairsrv/sources.c rtla-fairsrv/ring.c \
		   rtla-fairsrv/probes.c $(filter rtla-fairsrv/source-%.c,$(TOOL_SRCS))
DECODE_SRCS	:= $(SOURCE_SRCS) rtla-fairsrv/msg.c rtla-fairsrv/output.c \
		   rtla-fairsrv/system.c

$(B)/bin/decode-check: tests/probe/decode-check.c $(DECODE_SRCS) $(LIB_SRCS) $(HDRS) $(BPF_SKEL)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TRACE_CFLAGS) $(BPF_CFLAGS) -Irtla-fairsrv -pthread -o $@ $< \
		$(DECODE_SRCS) $(LIB_SRCS) $(TRACE_LIBS)

$(B)/bin/campaign-gen: tests/campaign/gen.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lm

$(B)/bin/campaign-replay: tests/campaign/replay.c $(LIB_SRCS) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_SRCS) -lm

$(B)/bin/rusage: tests/bench/rusage.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $<

# Unit tests: the pure library, built with ASan and UBSan, and the
# renderers that write to a stream (no tracefs).
UNIT_TOOL_SRCS	:= rtla-fairsrv/metrics.c rtla-fairsrv/msg.c rtla-fairsrv/output.c

$(B)/tests/test-%: tests/unit/test-%.c $(LIB_SRCS) $(UNIT_TOOL_SRCS) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(ASAN_CFLAGS) -Itests/unit -Irtla-fairsrv -o $@ $< $(LIB_SRCS) $(UNIT_TOOL_SRCS)

# The same tests, plain, for valgrind.
$(B)/valgrind/test-%: tests/unit/test-%.c $(LIB_SRCS) $(UNIT_TOOL_SRCS) $(HDRS)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -D_GNU_SOURCE $(WARN) -O1 -g -Ilib -Itests/unit -Irtla-fairsrv -o $@ $< $(LIB_SRCS) $(UNIT_TOOL_SRCS)

# Fuzzers of the parsers (libFuzzer, with ASan and UBSan), built by
# make unit; tests/run-all runs each for 30 s, make fuzz for FUZZ_SECONDS.
FUZZ_SECONDS	?= 300
FUZZ_CFLAGS	:= -std=gnu11 -D_GNU_SOURCE $(WARN) -O1 -g \
		   -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		   -Ilib -Irtla-fairsrv
FUZZERS		:= $(B)/fuzz/fuzz-values $(B)/fuzz/fuzz-args

unit: $(UNIT_BINS) $(VG_BINS) $(FUZZERS)

$(B)/fuzz/fuzz-values: tests/fuzz/fuzz-values.c lib/parse.c lib/text.c $(HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ $< lib/parse.c lib/text.c

# The option parser with its real error path (messages and the CPU count).
# --source's words come from the sources' table, which links them all in.
FUZZ_ARGS_SRCS	:= rtla-fairsrv/cli.c rtla-fairsrv/msg.c rtla-fairsrv/system.c \
		   $(SOURCE_SRCS)

$(B)/fuzz/fuzz-args: tests/fuzz/fuzz-args.c $(FUZZ_ARGS_SRCS) $(LIB_SRCS) $(HDRS) $(BPF_SKEL)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) $(TRACE_CFLAGS) $(BPF_CFLAGS) -o $@ $< $(FUZZ_ARGS_SRCS) \
		$(LIB_SRCS) $(TRACE_LIBS)

fuzz: deps $(FUZZERS)
	@for f in $(FUZZERS); do tests/fuzz/run $$f $(FUZZ_SECONDS) || exit 1; done

deps:
	@missing=$$(for p in $(DEPS); do \
		case "$$(dpkg-query -W -f='$${Status}' $$p 2>/dev/null)" in \
		*"ok installed") ;; *) echo $$p ;; esac; \
		done); \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" != 0 ]; then \
			echo "missing packages: $$missing; run 'make deps' as root" >&2; \
			exit 1; fi; \
		echo "installing: $$missing"; \
		apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends $$missing || { \
		echo "deps: could not install $$missing" >&2; \
		exit 1; }; \
	fi
	@kernel/source.sh > /dev/null

kernel: deps
	kernel/build.sh guest

image: deps
	image/build.sh

# The targets a fresh machine starts with install the packages first, then
# build in a make of their own, which finds what deps installed.
demo: deps
	$(MAKE) all
	image/run -- tests/guest/demo.sh

check: deps
	$(MAKE) all unit $(B)/asan/rtla deb
	tests/run-all

check-debug: deps
	$(MAKE) all unit $(B)/asan/rtla deb
	kernel/build.sh debug > /dev/null
	FAIRSRV_FLAVOR=debug tests/run-all

check-rt: deps
	$(MAKE) all unit $(B)/asan/rtla deb
	kernel/build.sh rt > /dev/null
	FAIRSRV_FLAVOR=rt tests/run-all

check-7.3: deps
	kernel/source.sh 7.3 > /dev/null
	$(MAKE) all unit $(B)/asan/rtla deb
	kernel/build.sh 7.3 > /dev/null
	kernel/build.sh 7.3-proposed > /dev/null
	FAIRSRV_FLAVOR=7.3 tests/run-all

# The patches, cover letter included, are passed as ./path: checkpatch
# checks a file that git tracks as source code, not as a patch.
# UNKNOWN_COMMIT_ID is ignored because the Fixes: ids cannot be looked up
# without the upstream kernel's history.
CACHE		?= $(or $(FAIRSRV_CACHE),/var/tmp/fairsrv)
PATCHES		:= $(wildcard kernel/patches/*.patch kernel/upstream/*/*.patch)

checkpatch: kernel
	perl $$(ls $(CACHE)/linux-*/scripts/checkpatch.pl | head -n 1) \
		--strict --no-tree --terse --ignore UNKNOWN_COMMIT_ID \
		$(addprefix ./,$(PATCHES))

$(B)/man/%.8: man/%.rst man/common_options.txt man/definitions.txt man/json.txt man/metrics.txt
	@mkdir -p $(@D)
	rst2man --halt=warning $< > $@

man: $(MAN_PAGES)

# rtla-fairsrv always; "rtla" (ours: it hands the other tools to
# /usr/bin/rtla) only where no rtla is installed, in PREFIX or, for a
# direct install, on the PATH. An existing rtla is never replaced.
# RTLA_LINK=no: never link rtla to rtla-fairsrv (the Debian package,
# which installs beside Debian's rtla).
RTLA_LINK	?= auto

install: all man
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man8
	install -m 0755 $(B)/bin/rtla $(DESTDIR)$(PREFIX)/bin/rtla-fairsrv
	@if [ "$(RTLA_LINK)" = no ]; then \
		:; \
	elif [ -e $(DESTDIR)$(PREFIX)/bin/rtla ] || \
	    { [ -z "$(DESTDIR)" ] && command -v rtla > /dev/null; }; then \
		echo "install: rtla exists; run this tool as rtla-fairsrv"; \
	else \
		ln -s rtla-fairsrv $(DESTDIR)$(PREFIX)/bin/rtla; \
		echo "install: no rtla found; $(PREFIX)/bin/rtla runs rtla fairsrv"; \
	fi
	install -m 0644 $(MAN_PAGES) $(DESTDIR)$(PREFIX)/share/man/man8/

# The service (not enabled): its unit and its settings.
install-service:
	install -D -m 0644 service/rtla-fairsrv.service \
		$(DESTDIR)/lib/systemd/system/rtla-fairsrv.service
	install -D -m 0644 service/rtla-fairsrv.default \
		$(DESTDIR)/etc/default/rtla-fairsrv

# The Debian package, built by dpkg-buildpackage from a copy of the
# files git tracks (its by-products stay out of the tree): build/deb/.
deb: deps
	rm -rf $(B)/deb && mkdir -p $(B)/deb/src
	git ls-files -z | tar --null -T - -cf - | tar -x -C $(B)/deb/src
	cd $(B)/deb/src && dpkg-buildpackage -b -us -uc > ../build.log 2>&1 || \
		{ tail -n 30 ../build.log; exit 1; }
	@ls $(B)/deb/*.deb

bench: deps
	$(MAKE) all
	tests/bench/run

FLAVOR		?= guest
campaign: deps
	$(MAKE) all
	tests/campaign/run -f $(FLAVOR) $(if $(SEED),$(SEED),-n $(or $(N),20))

clean:
	rm -rf $(B)
