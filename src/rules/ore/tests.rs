//! Cross-module tests for Virtual Veil.
