# Entry points.  Everything is driven by the scripts; this only names them.
#   make check     every test (the command .ci/run runs)
#   make setup     install the Debian packages the project needs
#   make build     build QEMU, the kernel, the device trees and the initramfs
#                  of both boards (nothing is booted)
#   make clean     remove from the cache what the current inputs do not use
#                  (scripts/clean.sh --old; --all removes everything)
.PHONY: check setup build clean
check:
	tests/run.sh $(SUITES)
setup:
	scripts/setup.sh
build:
	scripts/boot-goni.sh --build-only
	scripts/boot-aquila.sh --build-only
clean:
	scripts/clean.sh --old
