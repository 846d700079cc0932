/// Every accelerometer the kernel's IIO drivers expose (drivers/iio/accel, drivers/iio/imu,
/// hid-sensor-accel-3d, cros_ec_sensors, Samsung's ssp hub), each laid out as its source declares
/// it: the files, how they are shared, the scale the driver prints at its default range, scan
/// types, triggers and motion events; with udev properties from systemd 252's 60-sensor.hwdb
/// where a machine there carries the part. docs/devices.md has the table, driver by driver.
///
/// Raw counts of 1 g (`countsPerG`) are what the part gives at the default range; a driver whose
/// scale is in g rather than m/s² (`scaleIsInG`) prints a scale 9.8 times too small, and the zoo
/// keeps that mistake, as the kernel does.
public enum KernelDriverZoo {
    static func hwdb(_ match: String, matrix: String, location: String? = nil) -> (properties: [String: String], machine: String) {
        var properties = ["ACCEL_MOUNT_MATRIX": matrix]
        if let location { properties["ACCEL_LOCATION"] = location }
        return (properties, "60-sensor.hwdb: \(match)")
    }

    static let gyroscope = ["in_anglvel_x_raw": "0", "in_anglvel_y_raw": "0", "in_anglvel_z_raw": "0", "in_anglvel_scale": "0.001065264"]
    static let reflected = "0, -1, 0; -1, 0, 0; 0, 0, 1"

    public static let layouts: [KernelDriverLayout] = [
        // Laptops, convertibles and tablets (x86, ACPI): the parts 60-sensor.hwdb names most.
        {
            let machine = hwdb("sensor:modalias:platform:HID-SENSOR-200073*:dmi:*svn*ASUSTeK*:pnT103HAF:*", matrix: "0, -1, 0; 1, 0, 0; 0, 0, -1")
            var layout = KernelDriverLayout(driver: "hid_sensor_accel_3d", source: "drivers/iio/accel/hid-sensor-accel-3d.c", name: "accel_3d",
                                            scale: (.byType, "0.098066500"), countsPerG: 100, machine: machine.machine)
            layout.properties = machine.properties
            layout.offset = 0
            layout.samplingFrequencyFile = "in_accel_sampling_frequency"
            layout.otherFiles = ["in_accel_hysteresis": "0"]
            layout.scanType = "le:s32/32>>0"
            layout.triggers = ["accel_3d-dev0"]
            return layout
        }(),
        {
            let machine = hwdb("sensor:modalias:platform:HID-SENSOR-200073:dmi:*svnDell*:sku0CB3:*", matrix: "1, 0, 0; 0, 1, 0; 0, 0, 1", location: "base")
            var layout = KernelDriverLayout(driver: "hid_sensor_accel_3d", source: "drivers/iio/accel/hid-sensor-accel-3d.c", name: "accel_3d",
                                            scale: (.byType, "0.009806650"), countsPerG: 1000, machine: machine.machine + " (a Dell 2-in-1's base sensor, and one in the display)")
            layout.samplingFrequencyFile = "in_accel_sampling_frequency"
            layout.pair = .udevLocations
            return layout
        }(),
        {
            let machine = hwdb("sensor:modalias:acpi:BOSC0200*:dmi:*svn*ASUSTeK*:*pn*TP412UA:*", matrix: "0, -1, 0; 1, 0, 0; 0, 0, 1")
            var layout = KernelDriverLayout(driver: "bmc150_accel", source: "drivers/iio/accel/bmc150-accel-core.c", name: "bmc150_accel",
                                            scale: (.byType, "0.019149"), countsPerG: 512, machine: machine.machine)
            layout.properties = machine.properties
            layout.mountMatrixFile = "in_mount_matrix"
            layout.samplingFrequencyFile = "in_accel_sampling_frequency"
            layout.scanType = "le:s12/16>>4"
            layout.triggers = ["bmc150_accel-dev0", "bmc150_accel-any-motion-dev0"]
            layout.events = ["in_accel_x_roc_either_en", "in_accel_y_roc_either_en", "in_accel_z_roc_either_en",
                             "in_accel_x_roc_either_value", "in_accel_x_roc_either_period"]
            return layout
        }(),
        {
            // BOSC0200 with two sensors in one ACPI node (Lenovo Yoga 300-11IBR, ...): the second
            // i2c client is the base's, labelled by the driver.
            var layout = KernelDriverLayout(driver: "bmc150_accel", source: "drivers/iio/accel/bmc150-accel-i2c.c", name: "bmc150_accel",
                                            scale: (.byType, "0.019149"), countsPerG: 512, machine: "BOSC0200 dual (ROMS/ROMK in ACPI): one in the display, one in the base")
            layout.mountMatrixFile = "in_mount_matrix"
            layout.mountMatrix = reflected
            layout.samplingFrequencyFile = "in_accel_sampling_frequency"
            layout.pair = .labels
            return layout
        }(),
        {
            let machine = hwdb("sensor:modalias:acpi:KIOX000A*:dmi:*:svnARCHOS:pnARCHOS101CESIUM:*", matrix: "-1, 0, 0; 0, 1, 0; 0, 0, 1")
            // Under ACPI the IIO name is the i2c client's device name (kxcjk1013_match_acpi_device
            // returns dev_name(), which i2c-core-base.c's i2c_dev_set_name makes "i2c-" + the ACPI name).
            var layout = KernelDriverLayout(driver: "kxcjk_1013", source: "drivers/iio/accel/kxcjk-1013.c", name: "i2c-KIOX000A:00",
                                            scale: (.byType, "0.019163"), countsPerG: 512, machine: machine.machine)
            layout.properties = machine.properties
            layout.mountMatrixFile = "in_accel_mount_matrix"
            layout.samplingFrequencyFile = "in_accel_sampling_frequency"
            layout.scanType = "le:s12/16>>4"
            layout.triggers = ["i2c-KIOX000A:00-dev0", "i2c-KIOX000A:00-any-motion-dev0"]
            // Per axis, as Linux 6.1 lays them out (seen on the real kernel, Tests/KernelTier).
            layout.events = ["x", "y", "z"].flatMap { axis in
                ["en", "value", "period"].map { "in_accel_\(axis)_thresh_either_\($0)" }
            }
            return layout
        }(),
        {
            // KIOX010A in the display and KIOX020A in the base (Medion, BMAX 2-in-1s).
            var layout = KernelDriverLayout(driver: "kxcjk_1013", source: "drivers/iio/accel/kxcjk-1013.c", name: "kxcjk1013",
                                            scale: (.byType, "0.019163"), countsPerG: 512, machine: "KIOX010A (display) and KIOX020A (base), labelled by the driver")
            layout.mountMatrixFile = "in_accel_mount_matrix"
            layout.mountMatrix = "-1, 0, 0; 0, -1, 0; 0, 0, 1"
            layout.samplingFrequencyFile = "in_accel_sampling_frequency"
            layout.pair = .labels
            return layout
        }(),
        {
            let machine = hwdb("sensor:modalias:acpi:MXC6655*:dmi:*:svnAquarius*:pnNS483:*", matrix: "-1, 0, 0; 0, 1, 0; 0, 0, 1")
            var layout = KernelDriverLayout(driver: "mxc4005", source: "drivers/iio/accel/mxc4005.c", name: "mxc4005",
                                            scale: (.byType, "0.009582"), countsPerG: 1024, machine: machine.machine)
            layout.properties = machine.properties
            layout.mountMatrixFile = "in_accel_mount_matrix"
            layout.scanType = "be:s12/16>>4"
            layout.triggers = ["mxc4005-dev0"]
            return layout
        }(),
        {
            let machine = hwdb("sensor:modalias:acpi:SMO8840*:dmi:*:svnLENOVO:pn80XF:pvrLenovoMIIX320:*", matrix: "0, -1, 0; -1, 0, 0; 0, 0, 1")
            var layout = KernelDriverLayout(driver: "st_accel", source: "drivers/iio/accel/st_accel_core.c", name: "lng2dm",
                                            scale: (.separate, "0.156250"), countsPerG: 63, machine: machine.machine)
            layout.properties = machine.properties
            layout.mountMatrixFile = "mount_matrix"
            layout.samplingFrequencyFile = "sampling_frequency"
            layout.scanType = "le:s8/8>>0"
            layout.triggers = ["lng2dm-trigger"]
            return layout
        }(),
        {
            var layout = KernelDriverLayout(driver: "st_accel", source: "drivers/iio/accel/st_accel_core.c", name: "lis3dh",
                                            scale: (.separate, "0.009806"), countsPerG: 1000, machine: "device tree (st,lis3dh-accel): phones and boards")
            layout.mountMatrixFile = "mount_matrix"
            layout.mountMatrix = reflected
            layout.samplingFrequencyFile = "sampling_frequency"
            layout.scanType = "le:s12/16>>4"
            layout.triggers = ["lis3dh-trigger"]
            return layout
        }(),
        {
            let machine = hwdb("sensor:modalias:acpi:BMI0160*:dmi:*:svnAYANEO:pnAYANEO 2*:*", matrix: "-0, -1, 0; 0, 0, -1; 1, 0, 0")
            var layout = KernelDriverLayout(driver: "bmi160_core", source: "drivers/iio/imu/bmi160/bmi160_core.c", name: "bmi160",
                                            scale: (.byType, "0.000598"), countsPerG: 16384, machine: machine.machine)
            layout.properties = machine.properties
            layout.mountMatrixFile = "in_mount_matrix"
            layout.samplingFrequencyFile = "in_accel_sampling_frequency"
            layout.scanType = "le:s16/16>>0"
            layout.triggers = ["bmi160-dev0"]
            layout.otherFiles = gyroscope
            return layout
        }(),
        {
            var layout = KernelDriverLayout(driver: "bmi323_core", source: "drivers/iio/imu/bmi323/bmi323_core.c", name: "bmi323-imu",
                                            scale: (.byType, "0.002394"), countsPerG: 4096, machine: "ACPI BOSC0200 with a BMI323 (ASUS ROG Ally, Lenovo handhelds)")
            layout.properties = ["ACCEL_MOUNT_MATRIX": "-1, 0, 0; 0, 1, 0; 0, 0, -1"]
            layout.mountMatrixFile = "in_accel_mount_matrix"
            layout.samplingFrequencyFile = "in_accel_sampling_frequency"
            layout.scanType = "le:s16/16>>0"
            layout.triggers = ["bmi323-imu-trigger"]
            layout.events = ["in_accel_mag_rising_en", "in_accel_mag_rising_value", "in_accel_mag_falling_en"]
            layout.otherFiles = gyroscope
            return layout
        }(),
        {
            let machine = hwdb("sensor:modalias:acpi:INVN6500*:dmi:*svn*Acer*:*pn*AspireSW5-012:*", matrix: "0, 1, 0; 1, 0, 0; 0, 0, 1")
            var layout = KernelDriverLayout(driver: "inv_mpu6050", source: "drivers/iio/imu/inv_mpu6050/inv_mpu_core.c", name: "mpu6500",
                                            scale: (.byType, "0.000598"), countsPerG: 16384, machine: machine.machine)
            layout.properties = machine.properties
            layout.mountMatrixFile = "in_accel_mount_matrix"
            layout.samplingFrequencyFile = "sampling_frequency"
            layout.scanType = "be:s16/16>>0"
            layout.triggers = ["mpu6500-dev0"]
            // Wake-on-motion, on the OR of the axes, from Linux 6.10 (inv_mpu_core.c's inv_wom_events).
            layout.events = ["in_accel_x|y|z_roc_rising_en", "in_accel_x|y|z_roc_rising_value"]
            layout.otherFiles = gyroscope
            return layout
        }(),
        {
            let machine = hwdb("sensor:modalias:acpi:NSA2513*:dmi:*:svnCHUWIInnovationAndTechnology*:pnHi10X1:*", matrix: "0, 1, 0; -1, 0, 0; 0, 0, 1")
            var layout = KernelDriverLayout(driver: "da280", source: "drivers/iio/accel/da280.c", name: "da217",
                                            scale: (.byType, "0.002395019"), countsPerG: 4096, machine: machine.machine)
            layout.properties = machine.properties
            return layout
        }(),
        {
            let machine = hwdb("sensor:modalias:acpi:MIRAACC*:dmi:*:svnLINX*:pnLINX1020:*", matrix: "1, 0, 0; 0, -1, 0; 0, 0, -1")
            var layout = KernelDriverLayout(driver: "da280", source: "drivers/iio/accel/da280.c", name: "da280",
                                            scale: (.byType, "0.002395019"), countsPerG: 4096, machine: machine.machine)
            layout.properties = machine.properties
            return layout
        }(),
        // Chromebooks: the EC's sensors, scale and sampling frequency shared by all.
        {
            var layout = KernelDriverLayout(driver: "cros_ec_sensors", source: "drivers/iio/common/cros_ec_sensors/cros_ec_sensors_core.c", name: "cros-ec-accel",
                                            scale: (.byAll, "0.000598550"), countsPerG: 16384,
                                            machine: "a convertible Chromebook, Linux 5.19 and later: label accel-display / accel-base; hwdb line Chromebook users add (not in systemd 252): sensor:modalias:platform:cros-ec-accel:dmi:*:svnGOOGLE*")
            layout.properties = ["ACCEL_MOUNT_MATRIX": "-1, 0, 0; 0, -1, 0; 0, 0, -1"]
            layout.samplingFrequencyFile = "sampling_frequency"
            layout.otherFiles = ["in_accel_x_calibbias": "0", "in_accel_y_calibbias": "0", "in_accel_z_calibbias": "0", "id": "0",
                                 "sampling_frequency_available": "0.000000 12.500000 200.000000"]
            layout.scanType = "le:s16/16>>0"
            layout.pair = .labels
            return layout
        }(),
        {
            var layout = KernelDriverLayout(driver: "cros_ec_sensors", source: "drivers/iio/common/cros_ec_sensors/cros_ec_sensors_core.c", name: "cros-ec-accel",
                                            scale: (.byAll, "0.000598550"), countsPerG: 16384, machine: "a convertible Chromebook before Linux 5.19: location lid / base")
            layout.samplingFrequencyFile = "sampling_frequency"
            layout.otherFiles = ["in_accel_x_calibbias": "0", "in_accel_y_calibbias": "0", "in_accel_z_calibbias": "0", "id": "1"]
            layout.scanType = "le:s16/16>>0"
            layout.pair = .locations
            return layout
        }(),
        {
            var layout = KernelDriverLayout(driver: "cros_ec_sensors", source: "drivers/iio/common/cros_ec_sensors/cros_ec_sensors_core.c", name: "cros-ec-accel",
                                            scale: (.byAll, "0.000598550"), countsPerG: 16384, machine: "a Chromebook tablet: one sensor, in the lid")
            layout.samplingFrequencyFile = "sampling_frequency"
            layout.location = "lid"
            layout.scanType = "le:s16/16>>0"
            return layout
        }(),
        {
            var layout = KernelDriverLayout(driver: "cros_ec_accel_legacy", source: "drivers/iio/accel/cros_ec_accel_legacy.c", name: "cros-ec-accel-legacy",
                                            scale: (.byAll, "0.009586168"), countsPerG: 1023,
                                            machine: "60-sensor.hwdb: sensor:modalias:platform:cros-ec-accel-legacy (older Chromebooks)")
            layout.samplingFrequencyFile = "sampling_frequency"
            layout.pair = .locations
            layout.scanType = "le:s16/16>>0"
            return layout
        }(),
        // Phones and tablets on device tree, and everything else the kernel has.
        {
            var layout = KernelDriverLayout(driver: "ssp_accel_sensor", source: "drivers/iio/accel/ssp_accel_sensor.c", name: "ssp-accelerometer",
                                            scale: nil, countsPerG: 4096, machine: "Samsung phones with the ssp sensor hub (Galaxy S5 on postmarketOS)")
            layout.hasRaw = false
            layout.samplingFrequencyFile = "sampling_frequency"
            layout.scanType = "le:s16/16>>0"
            return layout
        }(),
        {
            var layout = KernelDriverLayout(driver: "mma8452", source: "drivers/iio/accel/mma8452.c", name: "mma8452",
                                            scale: (.byType, "0.009576"), countsPerG: 1024, machine: "device tree (fsl,mma8452): i.MX tablets and boards")
            layout.mountMatrixFile = "in_accel_mount_matrix"
            layout.mountMatrix = reflected
            layout.samplingFrequencyFile = "sampling_frequency"
            layout.scanType = "be:s12/16>>4"
            layout.triggers = ["mma8452-dev0"]
            layout.events = ["in_accel_x_mag_rising_en", "in_accel_y_mag_rising_en", "in_accel_z_mag_rising_en",
                             "in_accel_mag_rising_value", "in_accel_mag_rising_period"]
            return layout
        }(),
        {
            var layout = KernelDriverLayout(driver: "st_lsm6dsx", source: "drivers/iio/imu/st_lsm6dsx/st_lsm6dsx_core.c", name: "lsm6dso_accel",
                                            scale: (.byType, "0.000598"), countsPerG: 16393, machine: "device tree (st,lsm6dso): phones (the Librem 5 has an LSM9DS1)")
            layout.mountMatrixFile = "mount_matrix"
            layout.mountMatrix = reflected
            layout.samplingFrequencyFile = "sampling_frequency"
            layout.scanType = "le:s16/16>>0"
            layout.events = ["in_accel_x_thresh_either_en", "in_accel_y_thresh_either_en", "in_accel_z_thresh_either_en", "in_accel_thresh_either_value"]
            return layout
        }(),
        {
            var layout = KernelDriverLayout(driver: "st_lsm9ds0", source: "drivers/iio/imu/st_lsm9ds0/st_lsm9ds0_core.c", name: "lsm9ds0_accel",
                                            scale: (.separate, "0.000598"), countsPerG: 16393, machine: "device tree (st,lsm9ds0-imu)")
            layout.mountMatrixFile = "mount_matrix"
            layout.samplingFrequencyFile = "sampling_frequency"
            layout.scanType = "le:s16/16>>0"
            layout.triggers = ["lsm9ds0_accel-trigger"]
            return layout
        }(),
        {
            var layout = KernelDriverLayout(driver: "inv_icm42600", source: "drivers/iio/imu/inv_icm42600/inv_icm42600_accel.c", name: "icm42688-accel",
                                            scale: (.byType, "0.004788403"), countsPerG: 2048, machine: "device tree (invensense,icm42688): phones and drones")
            layout.mountMatrixFile = "mount_matrix"
            layout.mountMatrix = reflected
            layout.samplingFrequencyFile = "sampling_frequency"
            layout.scanType = "be:s16/16>>0"
            layout.events = ["in_accel_x|y|z_roc_rising_en", "in_accel_x|y|z_roc_rising_value"]
            return layout
        }(),
        {
            var layout = KernelDriverLayout(driver: "bmi270_core", source: "drivers/iio/imu/bmi270/bmi270_core.c", name: "bmi270",
                                            scale: (.byType, "0.002394"), countsPerG: 4096, machine: "ACPI BMI0260 (GPD handhelds), device tree")
            layout.samplingFrequencyFile = "in_accel_sampling_frequency"
            layout.scanType = "le:s16/16>>0"
            layout.triggers = ["bmi270-trig"]
            layout.otherFiles = gyroscope
            return layout
        }(),
        {
            var layout = KernelDriverLayout(driver: "bma400", source: "drivers/iio/accel/bma400_core.c", name: "bma400",
                                            scale: (.byType, "0.019154"), countsPerG: 512, machine: "device tree (bosch,bma400): wearables")
            layout.mountMatrixFile = "in_mount_matrix"
            layout.samplingFrequencyFile = "in_accel_sampling_frequency"
            layout.scanType = "le:s12/16>>0"
            layout.triggers = ["bma400-dev0"]
            layout.events = ["in_accel_mag_rising_en", "in_accel_mag_rising_value", "in_accel_mag_falling_en", "in_activity_change_en"]
            return layout
        }(),
        {
            var layout = KernelDriverLayout(driver: "bma180", source: "drivers/iio/accel/bma180.c", name: "bma250",
                                            scale: (.byType, "0.038344"), countsPerG: 256, machine: "device tree (bosch,bma250): older phones")
            layout.mountMatrixFile = "in_mount_matrix"
            layout.scanType = "le:s10/16>>6"
            layout.triggers = ["bma250-dev0"]
            return layout
        }(),
        {
            var layout = KernelDriverLayout(driver: "kionix_kx022a", source: "drivers/iio/accel/kionix-kx022a.c", name: "kx022-accel",
                                            scale: (.byType, "0.000598550"), countsPerG: 16384, machine: "device tree (kionix,kx022a)")
            layout.mountMatrixFile = "in_accel_mount_matrix"
            layout.samplingFrequencyFile = "in_accel_sampling_frequency"
            layout.scanType = "le:s16/16>>0"
            layout.triggers = ["kx022-acceldata-rdy-dev0"]
            return layout
        }(),
        {
            var layout = KernelDriverLayout(driver: "kxsd9", source: "drivers/iio/accel/kxsd9.c", name: "kxsd9",
                                            scale: (.byType, "0.011978"), countsPerG: 819, machine: "device tree (kionix,kxsd9)")
            layout.offset = -2048
            layout.mountMatrixFile = "in_accel_mount_matrix"
            layout.scanType = "be:u12/16>>4"
            layout.triggers = ["kxsd9-dev0"]
            return layout
        }(),
        {
            var layout = KernelDriverLayout(driver: "msa311", source: "drivers/iio/accel/msa311.c", name: "msa311-13",
                                            scale: (.byType, "0.076641"), countsPerG: 128, machine: "device tree (memsensing,msa311)")
            layout.samplingFrequencyFile = "in_accel_sampling_frequency"
            layout.scanType = "le:s12/16>>4"
            layout.triggers = ["msa311-13-new-data"]
            return layout
        }(),
        // Parts with x and y only: orientd completes z (`TwoAxisReading`) and polls them.
        {
            var layout = simple("adis16201", "drivers/iio/accel/adis16201.c", "adis16201", "0.004535575", 2162, scan: "be:s14/16>>0")
            layout.axes = ["x", "y"]
            layout.otherFiles = ["in_incli_x_raw": "0", "in_incli_y_raw": "0", "in_incli_scale": "0.001745329", "in_accel_x_calibbias": "0", "in_accel_y_calibbias": "0"]
            layout.triggers = ["adis16201-dev0"]
            return layout
        }(),
        {
            var layout = simple("adis16209", "drivers/iio/accel/adis16209.c", "adis16209", "0.002394195", 4096, scan: "be:s14/16>>0")
            layout.axes = ["x", "y"]
            layout.otherFiles = ["in_incli_x_raw": "0", "in_incli_y_raw": "0", "in_incli_scale": "0.000436332"]
            layout.triggers = ["adis16209-dev0"]
            return layout
        }(),
        {
            var layout = simple("mxc6255", "drivers/iio/accel/mxc6255.c", "mxc6255", "0.153829", 64)
            layout.axes = ["x", "y"]
            return layout
        }(),
        {
            // On the back of the board: the matrix flips z, so the screen's front is the part's -z.
            var layout = simple("da280", "drivers/iio/accel/da280.c", "da226", "0.002395019", 4096)
            layout.axes = ["x", "y"]
            layout.properties = ["ACCEL_MOUNT_MATRIX": "-1, 0, 0; 0, 1, 0; 0, 0, -1"]
            layout.machine = "a part on the back of the board (a matrix that flips z, as 60-sensor.hwdb gives for such mountings)"
            return layout
        }(),
        simple("adxl313", "drivers/iio/accel/adxl313_core.c", "adxl313", "0.009576806", 1024, scan: "be:s13/16>>0", events: ["in_accel_mag_rising_en", "in_accel_mag_adaptive_rising_en"]),
        simple("adxl345", "drivers/iio/accel/adxl345_core.c", "adxl345", "0.038300", 256, scan: "le:s13/16>>0", events: ["in_accel_gesture_singletap_en"]),
        simple("adxl355", "drivers/iio/accel/adxl355_core.c", "adxl355", "0.000038245", 256410, scan: "be:s20/32>>4"),
        simple("adxl367", "drivers/iio/accel/adxl367.c", "adxl367", "0.002394", 4096, scan: "be:s14/16>>0", events: ["in_accel_mag_referenced_rising_en", "in_accel_mag_referenced_falling_en"]),
        simple("adxl372", "drivers/iio/accel/adxl372.c", "adxl372", "0.958241", 10.2, scan: "be:s12/16>>4", events: ["thresh_rising_en", "thresh_falling_en"]),
        simple("adxl380", "drivers/iio/accel/adxl380.c", "adxl380", "0.001307", 7502, scan: "be:s16/16>>0", events: ["in_accel_thresh_rising_en", "in_accel_thresh_falling_en"]),
        simple("bma220", "drivers/iio/accel/bma220_core.c", "bma220", "0.623000", 16, scan: "le:s6/8>>2"),
        simple("bmi088_accel", "drivers/iio/accel/bmi088-accel-core.c", "bmi088-accel", "0.001795", 5464),
        simple("dmard09", "drivers/iio/accel/dmard09.c", "dmard09", "0.306457812", 32),
        simple("da311", "drivers/iio/accel/da311.c", "da311", "0.009580078", 1024),
        simple("dmard06", "drivers/iio/accel/dmard06.c", "dmard06", "0.031250", 32),
        simple("dmard10", "drivers/iio/accel/dmard10.c", "dmard10", "0.076640625", 128),
        simple("fxls8962af", "drivers/iio/accel/fxls8962af-core.c", "fxls8962af", "0.009610517", 1020, scan: "le:s12/16>>0", events: ["in_accel_x_thresh_either_en"]),
        simple("mc3230", "drivers/iio/accel/mc3230.c", "mc3230", "0.115411765", 85),
        simple("mma7455", "drivers/iio/accel/mma7455_core.c", "mma7455", "0.153229", 64, scan: "le:s10/16>>0"),
        simple("mma7660", "drivers/iio/accel/mma7660.c", "mma7660", "0.467142857", 21),
        simple("mma9551", "drivers/iio/accel/mma9551.c", "mma9551", "0.002440", 4019),
        simple("mma9553", "drivers/iio/accel/mma9553.c", "mma9553", "0.002440", 4019),
        simple("sca3000", "drivers/iio/accel/sca3000.c", "sca3000_d01", "0.007357", 1333, scan: "be:s13/16>>3", timestamp: false, events: ["in_accel_x_mag_rising_en"]),
        simple("sca3300", "drivers/iio/accel/sca3300.c", "sca3300", "0.000370", 2700, scan: "le:s16/16>>0"),
        simple("stk8312", "drivers/iio/accel/stk8312.c", "stk8312", "0.461600", 21, scan: "le:s8/8>>0"),
        simple("stk8ba50", "drivers/iio/accel/stk8ba50.c", "stk8ba50", "0.038400", 255, scan: "le:s10/16>>6"),
        simple("bno055", "drivers/iio/imu/bno055/bno055.c", "bno055", "0.010000000", 980.665, scan: "le:s16/16>>0"),
        simple("adis16475", "drivers/iio/imu/adis16475.c", "adis16475-1", "0.000023956", 409600, scan: "be:s32/32>>0"),
        simple("fxos8700", "drivers/iio/imu/fxos8700_core.c", "fxos8700", "0.000976", 1024),
        simple("kmx61", "drivers/iio/imu/kmx61.c", "kmx611021-accel", "0.019163", 512, scan: "le:s12/16>>4", timestamp: false, events: ["in_accel_thresh_either_en"]),
        simple("adis16400", "drivers/iio/imu/adis16400.c", "adis16400", "0.032685", 300, scan: "be:s14/16>>0"),
        simple("adis16460", "drivers/iio/imu/adis16460.c", "adis16460", "0.000000037", 262_144_000, scan: "be:s32/32>>0"),
        simple("adis16480", "drivers/iio/imu/adis16480.c", "adis16480", "0.000000119", 81_920_000, scan: "be:s32/32>>0"),
        simple("adis16550", "drivers/iio/imu/adis16550.c", "adis16550", "0.000000095", 102_400_000, scan: "be:s32/32>>0"),
        {
            var layout = simple("inv_icm42607", "drivers/iio/imu/inv_icm42607", "icm42607-accel", "0.001197101", 8192)
            layout.mountMatrixFile = "mount_matrix"
            layout.mountMatrix = reflected
            layout.samplingFrequencyFile = "sampling_frequency"
            return layout
        }(),
        {
            var layout = simple("inv_icm45600", "drivers/iio/imu/inv_icm45600", "icm45605-accel", "0.004788403", 2048, scan: "le:s16/16>>0")
            layout.mountMatrixFile = "mount_matrix"
            layout.mountMatrix = reflected
            layout.samplingFrequencyFile = "sampling_frequency"
            return layout
        }(),
        simple("smi330", "drivers/iio/imu/smi330", "smi330", "0.000244140", 4096, scan: "le:s16/16>>0"),
        simple("smi240", "drivers/iio/imu/smi240.c", "smi240", "0.000500", 2000, scan: "le:s16/16>>0"),
    ]

    /// A part found mostly on boards, by device tree: its files shared by type, no mount matrix.
    static func simple(_ driver: String, _ source: String, _ name: String, _ scale: String, _ countsPerG: Double,
                       scan: String? = nil, timestamp: Bool = true, events: [String] = []) -> KernelDriverLayout {
        var layout = KernelDriverLayout(driver: driver, source: source, name: name, scale: (.byType, scale), countsPerG: countsPerG,
                                        machine: "device tree or an ACPI id, no hwdb entry")
        layout.scanType = scan
        layout.timestamp = timestamp
        layout.events = events
        return layout
    }
}

extension KernelDriverLayout {
    /// Whether the driver's printed scale gives its counts of 1 g far from 9.81 m/s² (outside
    /// ×0.8 to ×1.25, where orientd's status says the scale is wrong): a driver that prints its
    /// scale in g, not m/s².
    public var scaleIsWrong: Bool {
        guard let text = scale?.text, let value = Double(text) else { return false }
        return !(0.8...1.25).contains(value * countsPerG / 9.80665)
    }
}

extension KernelDriverZoo {
    /// Where Debian's iio-sensor-proxy 3.0 does not turn with a layout (DeviceZooTests runs it on
    /// every one), by the layout's description, and why.
    public static let incumbentFails: [String: String] = {
        let twoAxes = "finds no accelerometer in a part without z, and exits"
        return [
            "ssp_accel_sensor (ssp-accelerometer)": "never reads it: the hub has no raw files, and its buffer gives 3.0 nothing",
            "kxsd9 (kxsd9)": "ignores in_accel_offset: unsigned counts centred on 2048 read as a device turned elsewhere",
            "adis16201 (adis16201)": twoAxes, "adis16209 (adis16209)": twoAxes, "mxc6255 (mxc6255)": twoAxes, "da280 (da226)": twoAxes,
        ]
    }()

    /// docs/devices.md's table, one row a layout: what the zoo emulates and orientd is tested on.
    public static var table: String {
        var lines = ["| driver | `name` | machine (udev properties from) | scale file: value | counts of 1 g | mount matrix | display or base | orientd reads | motion event | iio-sensor-proxy 3.0 |",
                     "|---|---|---|---|---:|---|---|---|---|---|"]
        for layout in layouts {
            let scale = layout.scale.map { "`\($0.sharing.file("scale", axis: "x"))`: \($0.text)" } ?? "none: 1 g taken from the readings"
            let matrix = [layout.properties["ACCEL_MOUNT_MATRIX"].map { _ in "udev `ACCEL_MOUNT_MATRIX`" },
                          layout.mountMatrixFile.map { "`\($0)`" }].compactMap { $0 }.joined(separator: ", ")
            let place: String
            switch layout.pair {
            case .labels?: place = "`label` accel-display / accel-base"
            case .locations?: place = "`location` lid / base"
            case .udevLocations?: place = "udev `ACCEL_LOCATION`"
            case nil: place = layout.location.map { "`location` \($0)" } ?? layout.label.map { "`label` \($0)" } ?? "one sensor"
            }
            let read = layout.axes.count < 3 ? "raw files, polled (x and y only: z completed)" : layout.scanType.map { "buffer, `\($0)`\(layout.triggers.isEmpty ? "" : ", trigger `\(layout.triggers[0])`")" } ?? "raw files, polled"
            let events = layout.events.isEmpty ? "none" : layout.events.prefix(2).map { "`\($0)`" }.joined(separator: ", ") + (layout.events.count > 2 ? ", …" : "")
            let counts = layout.countsPerG == layout.countsPerG.rounded() ? String(Int(layout.countsPerG)) : String(layout.countsPerG)
            let incumbent = incumbentFails[layout.description].map { "does not turn: \($0)" } ?? "turns"
            lines.append("| \(layout.driver) | `\(layout.name)` | \(layout.machine) | \(scale) | \(counts) | \(matrix.isEmpty ? "none" : matrix) | \(place) | \(read) | \(events) | \(incumbent) |")
        }
        return lines.joined(separator: "\n")
    }
}
