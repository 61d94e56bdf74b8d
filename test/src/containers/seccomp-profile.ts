// The seccomp filter a container gets for `seccompProfile: RuntimeDefault`. containerd's default profile is an allow
// list of some 400 system calls, most of them permitted to every container; this is the same boundary written the other
// way round: everything allowed except what containerd's profile refuses to a container without CAP_SYS_ADMIN and
// friends (Docker's list of "significant syscalls blocked by the default profile"): making namespaces and mounts,
// loading modules and kernels, keyrings, BPF, clocks, swap, reboot, other processes' memory. A name this kernel lacks is
// skipped by runc. The NUMA calls and personality, which containerd allows in part, are left allowed.
const REFUSED_SYSCALLS = [
  'acct', 'add_key', 'bpf', 'clock_adjtime', 'clock_settime', 'create_module', 'delete_module', 'finit_module', 'fsconfig', 'fsmount', 'fsopen',
  'fspick', 'get_kernel_syms', 'init_module', 'ioperm', 'iopl', 'kcmp', 'kexec_file_load', 'kexec_load', 'keyctl', 'lookup_dcookie', 'mount',
  'mount_setattr', 'move_mount', 'name_to_handle_at', 'nfsservctl', 'open_by_handle_at', 'open_tree', 'perf_event_open', 'pivot_root',
  'process_vm_readv', 'process_vm_writev', 'query_module', 'quotactl', 'reboot', 'request_key', 'setns', 'settimeofday', 'stime', 'swapoff',
  'swapon', 'sysfs', '_sysctl', 'umount', 'umount2', 'unshare', 'uselib', 'userfaultfd', 'ustat', 'vm86', 'vm86old',
] as const;

/** EPERM, as containerd's profile answers a refused call. */
const EPERM = 1;

/** The OCI runtime spec's `linux.seccomp` for RuntimeDefault. */
export const RUNTIME_DEFAULT_SECCOMP = {
  defaultAction: 'SCMP_ACT_ALLOW',
  architectures: ['SCMP_ARCH_X86_64', 'SCMP_ARCH_X86', 'SCMP_ARCH_X32'],
  syscalls: [{ names: [...REFUSED_SYSCALLS], action: 'SCMP_ACT_ERRNO', errnoRet: EPERM }],
} as const;
