"""NVMe transport host side."""
