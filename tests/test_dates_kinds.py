"""Issue 20, dates and phones by kind: a bare m/d after a clinical event or finding, unless the
text around it is of a named non-date class (vent settings, blood pressure, ratios, fractions
with units, scores); months and ordinal days in date context; four-digit clock times that are
no years; phones run together or spaced. Every example is invented."""
import ruletable

from deid_core.detectors import contact, dates

found = ruletable.finder(dates.detect)
found_phone = ruletable.finder(contact.detect)
C, R = "certain", "review"

#: A bare m/d after a clinical event or finding, in different wordings.
EVENT_DATES = [
    ("Tmax 100.8 3/17, cultures sent.", [("3/17", C)]),
    ("Hx: s/p CABG x3 7/2 at OSH.", [("7/2", C)]),
    ("Urine cx X 1 9/30 grew E. coli.", [("9/30", C)]),
    ("Plan to extubate 5/21 if SBT ok.", [("5/21", C)]),
    ("Lipase + 2/7, CT pending.", [("2/7", C)]),
    ("WBC 14 11/6, now 9.", [("11/6", R)]),
    ("Sputum cx from 12/29 negative.", [("12/29", C)]),
]
#: What stays: vent settings, ratios, fractions with units, scores, mixed numbers.
NOT_DATES = [
    "On PSV 12/5 overnight.",
    "CPAP 5/5, FiO2 35%.\nLater weaned to 10/5, ABG fine.",
    "Weaned to 8/5 on PS, tolerating.",
    "Motor 5/5 throughout, sensation intact.",
    "Blood cx 2/4 bottles with GPC.",
    "Given 1/2 ST saline at 75.",
    "CO/CI 5/2.4, SVR 1100.",
    "Took 2 1/2 tabs of oxycodone.",
    "GCS E2 V1 M4 7/15 on arrival.",
    "BP 118/72, HR 80.",
    "Pain 6/10, improved after morphine.",
]
#: Months alone and ordinal days in date context; the ambiguous month words stay.
WORD_DATES = [
    ("Off steroids since mid-October.", [("October", C)]),
    ("A1c 8.1 Sep, now on insulin.", [("Sep", C)]),
    ("Rash worse in Nov/Dec each year.", [("Nov", C), ("Dec", C)]),
    ("Seen by GI on the 14th, scope clean.", [("14th", C)]),
    ("Sutures out by the 2nd.", [("2nd", C)]),
    ("Tuesday the 21st: family meeting.", [("Tuesday", C), ("21st", C)]),
    ("Independence Day, the Fourth of July 2019 fall.", [("Independence Day", C), ("Fourth of July 2019", C)]),
]
WORD_NOT_DATES = [
    "She may march in the parade; MAR reviewed.",
    "Pain in the 4th digit and the 5th toe.",
    "Moved to the 3rd floor on arrival.",
    "Second opinion on the 2nd opinion form.",
]
#: Weekday abbreviations (review); the ones that are also words (mon, sat, sun, wed) only after on/next/by.
WEEKDAYS = [
    ("Dialysis missed Fri, no ride.", [("Fri", R)]),
    ("OR TUES for washout.", [("TUES", R)]),
    ("next appt thurs.", [("thurs", R)]),
    ("Home on Sat if stable.", [("Sat", R)]),
    ("Family meeting by wed.", [("wed", R)]),
]
WEEKDAY_NOT_DATES = [
    "O2 sat 91% on 2L, sats stable.",
    "Desat and sat improved with suction.",
    "Keep out of the sun; on tele mon.",
    "Sat's have been low overnight.",
]
#: Ranges of one month, the day going on, and dates after a shift written in clock times.
RANGES = [
    ("Inpatient 3/15-3/20, home after.", [("3/15", C), ("3/20", C)]),
    ("MRN 5512093  6/3-6/4", [("6/3", C), ("6/4", C)]),
    ("Off work 1/2-1/5 per note.", [("1/2", C), ("1/5", C)]),
    ("0700-1900 4/12\nneuro intact", [("4/12", C)]),
    ("1900-0700 12/30 uneventful.", [("12/30", C)]),
    ("THU 10/29 NIGHTS", [("THU 10/29", C)]),
]
RANGE_NOT_DATES = [
    "Crackles 1/3-1/2 up bilaterally.",
    "Rales 1/4-1/3 of the way up.",
    "Took 2 1/3-1/2 tabs.",
]
#: A month after a value with its unit, or joined to another month.
MONTH_AFTER_VALUE = [
    ("Was 66 kg Feb, now 61 kg.", [("Feb", C)]),
    ("MAC 18 cm Aug; down since.", [("Aug", C)]),
    ("Two AOM (April and June 2024).", [("April", C), ("June 2024", C)]),
]
#: Two-digit years listed after a history word.
HISTORY_YEARS = [
    ("s/p PCI in 98 and 06, stable.", [("98", C), ("06", C)]),
    ("CVA 87, 03 without deficit.", [("87", C), ("03", C)]),
    ("MI in 99.", [("99", C)]),
]
#: Four-digit clock times (minutes 00-59) that are no years; real years stay.
CLOCK_TIMES = [
    "Restless from 1900 to 0630.",
    "Drip off 2000 per protocol.",
    "EBL 1500, drained 2000+ overnight.",
    "Heparin held (off at 1945).",
    "Slept 0700-1930 in chair.",
    "At 2015 pt called out.",
]
YEARS = [
    ("Diagnosed in 2019, stable.", [("2019", C)]),
    ("Sober since 2008.", [("2008", C)]),
    ("Calm until 2030, then agitated.", [("2030", R)]),
    ("Smoked until 1998.", [("1998", C)]),
]
#: Phones run together, spaced, with letters or as a lone extension; doses, labs and MRNs stay.
PHONES = [
    ("Daughter 412 730-1186 (cell).", [("412 730-1186", "PHONE", R)]),
    ("Son at 508 6641920 evenings.", [("508 6641920", "PHONE", R)]),
    ("Phone 617448-2093 home.", [("617448-2093", "PHONE", C)]),
    ("Please page back at x317.", [("x317", "PHONE", C)]),
    ("Radiology by phone ext 4-0192 at noon.", [("ext 4-0192", "PHONE", C)]),
    ("Call 3 0 1 5 5 5 0 1 4 2 today.", [("3 0 1 5 5 5 0 1 4 2", "PHONE", C)]),
    ("Call 1-800-GO-RIVER or 410-555-HELP.", [("1-800-GO-RIVER", "PHONE", C), ("410-555-HELP", "PHONE", C)]),
]
NOT_PHONES = [
    "KCl 40 meq x3, Mg 2.1.",
    "Lasix 40 mg 2 1 0 tabs.",
    "Plt 150 1200 1530 checks.",
    "ABG 7.32/48/80/24.",
    "Given 1800 AFTER DINNER.",
]

test_event_dates = ruletable.found_test(found, EVENT_DATES, label="DATE")
test_not_dates = ruletable.nothing_test(found, NOT_DATES)
test_word_dates = ruletable.found_test(found, WORD_DATES, label="DATE")
test_word_not_dates = ruletable.nothing_test(found, WORD_NOT_DATES)
test_weekdays = ruletable.found_test(found, WEEKDAYS, label="DATE")
test_weekday_not_dates = ruletable.nothing_test(found, WEEKDAY_NOT_DATES)
test_ranges = ruletable.found_test(found, RANGES, label="DATE")
test_range_not_dates = ruletable.nothing_test(found, RANGE_NOT_DATES)
test_month_after_value = ruletable.found_test(found, MONTH_AFTER_VALUE, label="DATE")
test_history_years = ruletable.found_test(found, HISTORY_YEARS, label="DATE")
test_clock_times = ruletable.nothing_test(found, CLOCK_TIMES)
test_years = ruletable.found_test(found, YEARS, label="DATE")
test_phones = ruletable.found_test(found_phone, PHONES)
test_not_phones = ruletable.nothing_test(found_phone, NOT_PHONES)
