"""The trainer: engine-dealt questions, graded and explained."""
