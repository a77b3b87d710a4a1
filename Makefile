# Installs UNTerm under a prefix: the static binary, the themes and samples it needs, the manual
# page and the bash, zsh and fish completions where those look; `make uninstall` removes the
# same. PREFIX=~/.local works without root; DESTDIR stages a package.
#
#   make install                      # /usr/local
#   make install PREFIX=~/.local
#   make uninstall PREFIX=~/.local
#
# CONFIG=debug installs a debug build; `make install-files BIN=path` installs a binary already
# built (the tests do, as a release build takes minutes).

PREFIX ?= /usr/local
DESTDIR ?=
CONFIG ?= release

root := $(DESTDIR)$(PREFIX)
share := $(root)/share/unterm
BIN ?= .build/$(CONFIG)/unterm
bin := $(BIN)
man1 := $(root)/share/man/man1
bash_completions := $(root)/share/bash-completion/completions
zsh_completions := $(root)/share/zsh/site-functions
fish_completions := $(root)/share/fish/vendor_completions.d

.PHONY: build install install-files uninstall

build:
ifeq ($(CONFIG),release)
	Scripts/build-release.sh unterm
else
	swift build -c $(CONFIG) --product unterm
endif

install: build
	$(MAKE) install-files PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" BIN="$(bin)"

install-files:
	install -d "$(root)/bin" "$(share)" "$(man1)" "$(bash_completions)" "$(zsh_completions)" "$(fish_completions)"
	install -m 755 "$(bin)" "$(root)/bin/unterm"
	rm -rf "$(share)/Themes" "$(share)/SamplePayloads"
	cp -R Themes SamplePayloads "$(share)/"
	"$(bin)" help man > "$(man1)/unterm.1"
	"$(bin)" completion bash > "$(bash_completions)/unterm"
	"$(bin)" completion zsh > "$(zsh_completions)/_unterm"
	"$(bin)" completion fish > "$(fish_completions)/unterm.fish"
	@echo "installed unterm in $(root)/bin (themes and samples in $(share))"

uninstall:
	rm -f "$(root)/bin/unterm" "$(man1)/unterm.1" "$(bash_completions)/unterm" "$(zsh_completions)/_unterm" \
	  "$(fish_completions)/unterm.fish"
	rm -rf "$(share)"
	@echo "removed unterm from $(root)"
