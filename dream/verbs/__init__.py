"""RNIC transport host side: mlx5 formats, soft RNIC, real ConnectX setup."""
