"""The night's report (issue 35): written from the numbers, edited and published by the club."""
