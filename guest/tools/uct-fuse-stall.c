// SPDX-License-Identifier: GPL-2.0
/*
 * uct-fuse-stall - what a hostile tenant mounts: a FUSE file system whose
 * daemon answers enough to be mounted (INIT, the root's GETATTR, STATFS)
 * and then never answers a LOOKUP. A lookup in it - of anyone, root
 * included - waits in the kernel, deaf to SIGKILL once the request was
 * read, until the daemon answers or dies.
 *
 *   uct-fuse-stall [--overlay] DIR READY_FILE
 *
 * Run as "root" of a user and mount namespace of its own (unshare -Urm):
 * mounts on DIR, or with --overlay mounts it on a scratch directory and
 * then a read-only overlay on DIR whose top layer it is (DIR's own files
 * the layer below), as a container image's layers are.
 * Writes its pid to READY_FILE when mounted, then serves until killed,
 * holding every LOOKUP; "lookups N" lines on stdout count them.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <linux/fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static int reply(int fd, __u64 unique, int error, const void *arg, size_t len)
{
	char buf[sizeof(struct fuse_out_header) + 256];
	struct fuse_out_header h = { .len = (__u32)(sizeof(h) + len), .error = error,
				     .unique = unique };

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), arg, len);
	return write(fd, buf, h.len) == (ssize_t)h.len ? 0 : -1;
}

static void write_ready(const char *path, pid_t pid)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fprintf(f, "%d\n", pid);
		fclose(f);
	}
}

static void root_attr(struct fuse_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->ino = FUSE_ROOT_ID;
	a->mode = S_IFDIR | 0755;
	a->nlink = 2;
	a->blksize = 4096;
}

int main(int argc, char **argv)
{
	const char *overlay = NULL, *mnt, *ready;
	int ov = argc > 1 && !strcmp(argv[1], "--overlay");
	static char buf[1 << 17];	/* at least FUSE_MIN_READ_BUFFER */
	char opts[128], scratch[] = "/tmp/uct-fuse-stall.XXXXXX", ovopts[4200];
	unsigned long lookups = 0;
	int fd;

	if (argc != 3 + ov) {
		fprintf(stderr, "usage: uct-fuse-stall [--overlay] DIR READY_FILE\n");
		return 2;
	}
	mnt = argv[1 + ov];
	ready = argv[2 + ov];
	signal(SIGCHLD, SIG_IGN);	/* the overlay's mounter reaps itself */
	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror("uct-fuse-stall: /dev/fuse");
		return 1;
	}
	if (ov) {
		overlay = mnt;
		if (!mkdtemp(scratch)) {
			perror("uct-fuse-stall: mkdtemp");
			return 1;
		}
		mnt = scratch;
	}
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=0,group_id=0", fd);
	if (mount("uct-stall", mnt, "fuse.uct-stall", MS_NOSUID | MS_NODEV, opts)) {
		perror("uct-fuse-stall: mount fuse");
		return 1;
	}
	for (;;) {
		struct fuse_in_header *in = (struct fuse_in_header *)buf;
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && (errno == EINTR || errno == ENOENT))
			continue;	/* ENOENT: a request withdrawn */
		if (n < (ssize_t)sizeof(*in))
			return 1;
		switch (in->opcode) {
		case FUSE_INIT: {
			const struct fuse_init_in *ii = (const void *)(in + 1);
			struct fuse_init_out o = { .major = FUSE_KERNEL_VERSION,
						   .minor = FUSE_KERNEL_MINOR_VERSION,
						   .max_readahead = ii->max_readahead,
						   .max_write = 4096 };

			reply(fd, in->unique, 0, &o, sizeof(o));
			/* the overlay's mount asks the layer for its root and
			 * its statistics: mounted by a child, answered here */
			if (overlay && fork() == 0) {
				snprintf(ovopts, sizeof(ovopts), "lowerdir=%s:%s", scratch, overlay);
				if (mount("overlay", overlay, "overlay", MS_RDONLY, ovopts)) {
					perror("uct-fuse-stall: mount overlay");
					_exit(1);
				}
				write_ready(ready, getppid());
				_exit(0);
			}
			if (!overlay)
				write_ready(ready, getpid());
			break;
		}
		case FUSE_GETATTR: {
			struct fuse_attr_out o = { .attr_valid = 3600 };

			root_attr(&o.attr);
			reply(fd, in->unique, 0, &o, sizeof(o));
			break;
		}
		case FUSE_STATFS: {
			struct fuse_statfs_out o = { .st = { .bsize = 4096, .namelen = 255,
							     .frsize = 4096 } };

			reply(fd, in->unique, 0, &o, sizeof(o));
			break;
		}
		case FUSE_LOOKUP:
			/* held: never answered */
			printf("lookups %lu\n", ++lookups);
			fflush(stdout);
			break;
		case FUSE_FORGET:
		case FUSE_BATCH_FORGET:
		case FUSE_INTERRUPT:
			break;	/* no answer expected */
		default:
			reply(fd, in->unique, -ENOSYS, NULL, 0);
			break;
		}
	}
}
