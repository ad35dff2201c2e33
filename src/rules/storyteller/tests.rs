//! Tests for the Storyteller rules core.
