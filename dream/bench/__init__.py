"""The experiments behind the DREAM evaluation: inputs (graphs), the
workload kernels (one source built for dream_ptr<T> and for T *), and
their exact checks against references."""
