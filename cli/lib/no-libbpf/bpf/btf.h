/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Found first on the include path of the layers that must not talk to the
 * kernel's BPF subsystem (lib/, top/, views/, http/, check/judge/): they
 * are built and tested without libbpf, on synthetic snapshots. Move the
 * code that needs <bpf/btf.h> to kernel/ (see cli/Makefile, LAYERS).
 */
#error "<bpf/btf.h> included from a layer that must not use libbpf (cli/Makefile: LAYERS)"
