//! Cross-module Veracity tests.
